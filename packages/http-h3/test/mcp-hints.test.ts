// What an agent meets when it mixes up a design's `_id` and its render code, or previews with
// overrides that all miss: errors and first lines that say what to do (issue: designs built in
// one pass). Driven through the official MCP client against the app, as an agent connects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserRecord } from '@litho/core/contracts'
import { createHarness, type Harness } from './_harness.js'
import { MCP_URL, connectMcp, textOf, type ToolResult } from './_mcp.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'

let h: Harness
let user: UserRecord
const { accessToken } = oauthHelpers(() => h)

beforeAll(async () => {
  h = await createHarness({ withOAuth: {} })
  user = await h.createUser('pro', PASSWORD)
})
afterAll(() => h.close())

async function connect(): Promise<(name: string, args?: Record<string, unknown>) => Promise<ToolResult>> {
  return (await connectMcp(h, await accessToken(user, { scope: 'read write', resource: MCP_URL }), 'hints')).call
}
const card = { version: 2, width: 400, height: 200, background: '#102030', components: [{ key: 'title', type: 'text', x: 20, y: 20, width: 360, height: 80, text: 'Stored', fontSize: 32, color: '#ffffff' }] }

describe('MCP: errors and first lines that point to the fix', () => {
  it('mcp › a render code given where the _id belongs: the error names the _id of the caller\'s own design', async () => {
    const call = await connect()
    const created = await call('create_design', { name: 'Speaker card', document: card, publish: true })
    expect(created.isError, textOf(created)).toBeFalsy()
    const { _id, renderCode } = created.structuredContent as { _id: string; renderCode: string }
    for (const tool of ['get_design', 'get_render_config', 'render_preview']) {
      const wrong = await call(tool, { id: renderCode })
      expect(wrong.isError, tool).toBe(true)
      expect(textOf(wrong)).toContain(`render code of your design "Speaker card", whose _id is "${_id}"`)
    }
  })

  it('mcp › a preview whose overrides were all ignored says so in its first line', async () => {
    const call = await connect()
    const created = await call('create_design', { name: 'Typo card', document: card })
    const { _id } = created.structuredContent as { _id: string }
    const preview = await call('render_preview', { id: _id, overrides: { 'titel.text': 'Hello', 'title.txt': 'Hello' } })
    expect(preview.isError, textOf(preview)).toBeFalsy()
    const [first, ...rest] = textOf(preview).split('\n')
    expect(first).toMatch(/^None of the 2 overrides was applied \(titel\.text, title\.txt/)
    // Each ignored key says which one was probably meant, and the first line lists the valid keys.
    expect(first).toContain('Valid keys: title.text')
    expect(rest.join('\n')).toContain('override_ignored (titel.text): no component has the key "titel"; did you mean "title.text"?')
    const applied = await call('render_preview', { id: _id, overrides: { 'title.text': 'Hello' } })
    expect(textOf(applied).split('\n')[0]).toBe('Preview of the draft version, variation master, 400x200 px with its override applied.')
  })
})
