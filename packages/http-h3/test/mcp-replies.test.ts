// Lean MCP replies (issue: designs built in one pass, "Lean replies and a lighter guide"):
// summaries from create_design/update_design with data: URIs never echoed in full, the guide
// by section and as resources, and ready render requests in get_render_config. Driven through
// the official MCP client against the app.
import type { Client } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getDesignGuide, getGuideSection } from '@litho/core'
import type { UserRecord } from '@litho/core/contracts'
import { createHarness, sniff, type Harness } from './_harness.js'
import { MCP_URL, connectMcp, textOf, type ToolResult } from './_mcp.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'
import { dataUriMarker, elideDataUris } from '../src/mcp/replies.js'

let h: Harness
let user: UserRecord
let client: Client
let call: (name: string, args?: Record<string, unknown>) => Promise<ToolResult>
const { accessToken } = oauthHelpers(() => h)

beforeAll(async () => {
  h = await createHarness({ withOAuth: {} })
  user = await h.createUser('pro', PASSWORD)
  const connected = await connectMcp(h, await accessToken(user, { scope: 'read write', resource: MCP_URL }), 'replies')
  client = connected.client
  call = connected.call
})
afterAll(async () => {
  await client.close()
  await h.close()
})


// A 300 KB PNG-typed data URI (the bytes need not decode: the document is only stored, not rendered).
const BIG_PNG = `data:image/png;base64,${Buffer.alloc(300 * 1024, 7).toString('base64')}`
const card = {
  version: 2,
  width: 400,
  height: 300,
  components: [
    { type: 'image', key: 'photo', width: 400, height: 200, src: BIG_PNG },
    { type: 'text', key: 'title', y: 220, width: 400, height: 60, text: 'Hello', dynamic: ['text'] },
    { type: 'group', key: 'tag', width: 100, height: 40, children: [{ type: 'shape', key: 'dot', width: 8, height: 8 }] },
  ],
  variations: [{ id: 'story', width: 300, height: 600 }],
}

describe('create_design and update_design reply with a summary', () => {
  it('mcp › create: ids, state, "created", component keys with type and dynamic fields; no data: URI, not the document', async () => {
    const created = await call('create_design', { name: 'Lean', document: card })
    expect(created.isError, textOf(created)).toBeFalsy()
    const summary = created.structuredContent!
    expect(summary).toEqual({
      _id: expect.stringMatching(/^d_/),
      name: 'Lean',
      renderCode: expect.any(String),
      state: 'draft',
      published: false,
      changes: 'created',
      components: [
        { key: 'photo', type: 'image', dynamic: ['src', 'visible'] },
        { key: 'title', type: 'text', dynamic: ['text'] },
        { key: 'tag', type: 'group', dynamic: ['visible'] },
        { key: 'dot', type: 'shape', dynamic: ['fill', 'visible'], parent: 'tag' },
      ],
    })
    expect(JSON.parse(textOf(created))).toEqual(summary)
    expect(textOf(created).length).toBeLessThan(500)
    expect(textOf(created)).not.toContain('data:')
    // get_design stays whole: an agent round-trips it.
    const got = await call('get_design', { id: summary._id })
    expect((got.structuredContent as { draft: { components: Array<{ src?: string }> } }).draft.components[0]!.src).toBe(BIG_PNG)
  })

  it('mcp › update: components added, removed and changed with field names, top-level fields and name; verbose adds the stored design with data: URIs as markers', async () => {
    const { _id } = (await call('create_design', { name: 'Lean 2', document: card })).structuredContent as { _id: string }
    const patched = await call('update_design', {
      id: _id,
      name: 'Lean 2b',
      patch: { components: { title: { text: 'Bye', y: 230 } }, add: [{ component: { type: 'text', key: 'sub', width: 100, height: 20, text: 'x' } }], remove: ['dot'], width: 500 },
    })
    expect(patched.isError, textOf(patched)).toBeFalsy()
    expect(patched.structuredContent).toMatchObject({
      name: 'Lean 2b',
      state: 'draft',
      changes: { name: 'Lean 2b', components: { added: ['sub'], removed: ['dot'], changed: [{ key: 'title', fields: ['y', 'text'] }, { key: 'tag', fields: ['children'] }] }, fields: ['width'] },
    })
    expect(patched.structuredContent).not.toHaveProperty('draft')

    const verbose = await call('update_design', { id: _id, patch: { components: { title: { text: 'Again' } } }, verbose: true })
    expect(verbose.isError, textOf(verbose)).toBeFalsy()
    const value = verbose.structuredContent as { changes: unknown; design: unknown; draft: { components: Array<{ src?: string; text?: string }> }; updatedAt: string }
    expect(value.changes).toEqual({ components: { added: [], removed: [], changed: [{ key: 'title', fields: ['text'] }] }, fields: [] })
    expect(value.design).toBeNull()
    expect(value.draft.components[0]!.src).toBe('data:image/png;base64,… (300 KB)')
    expect(value.draft.components[1]!.text).toBe('Again')
    expect(JSON.parse(textOf(verbose))).toEqual(value)
    expect(textOf(verbose).length).toBeLessThan(1500)
  })

  it('mcp › verbose create shows the stored design, data: URIs shortened; verbose must be a boolean', async () => {
    const created = await call('create_design', { name: 'Lean 3', document: card, verbose: true })
    const value = created.structuredContent as { changes: string; draft: { components: Array<{ src: string }> }; createdAt: string }
    expect(value.changes).toBe('created')
    expect(value.createdAt).toEqual(expect.any(String))
    expect(value.draft.components[0]!.src).toBe('data:image/png;base64,… (300 KB)')
    const wrong = await call('create_design', { name: 'Lean 4', document: card, verbose: 'yes' })
    expect(wrong.isError).toBe(true)
    expect(textOf(wrong)).toContain('verbose')
  })
})

describe('data: URI markers', () => {
  it('give the media type and the decoded size, in B, KB or MB', () => {
    expect(dataUriMarker('data:image/png;base64,iVBORw0KGgo=')).toBe('data:image/png;base64,… (8 B)')
    expect(dataUriMarker(`data:image/svg+xml,${'a'.repeat(2048)}`)).toBe('data:image/svg+xml,… (2 KB)')
    expect(dataUriMarker(`data:image/jpeg;base64,${'A'.repeat(4 * 1024 * 1024)}`)).toBe('data:image/jpeg;base64,… (3.0 MB)')
    expect(elideDataUris({ a: ['data:text/plain,hi', 'https://x'], b: 1 })).toEqual({ a: ['data:text/plain,… (2 B)', 'https://x'], b: 1 })
  })
})

describe('get_design_guide by section, and as resources', () => {
  it('mcp › the default is the concise guide (≤ 15 KB); schema, examples and full on request', async () => {
    const guide = textOf(await call('get_design_guide'))
    expect(guide).toBe(getGuideSection('guide'))
    expect(Buffer.byteLength(guide)).toBeLessThanOrEqual(15_000)
    const schema = textOf(await call('get_design_guide', { section: 'schema' }))
    expect(JSON.parse(schema.slice(schema.indexOf('\n') + 1))).toEqual(getDesignGuide().jsonSchema)
    expect(textOf(await call('get_design_guide', { section: 'examples' }))).toContain('## Complete example')
    expect(textOf(await call('get_design_guide', { section: 'full' }))).toBe(getDesignGuide().markdown)
    expect(textOf(await call('get_design_guide', { section: 'barcode' }))).toBe(getGuideSection('barcode'))
    const wrong = await call('get_design_guide', { section: 'everything' })
    expect(wrong.isError).toBe(true)
    expect(textOf(wrong)).toContain('section')
  })

  it('mcp › the schema and the examples are listed and readable as resources', async () => {
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.uri).sort()).toEqual(['litho://design-guide/examples', 'litho://design-guide/schema'])
    const schema = await client.readResource({ uri: 'litho://design-guide/schema' })
    expect(JSON.parse((schema.contents[0] as { text: string }).text)).toEqual(getDesignGuide().jsonSchema)
    const examples = await client.readResource({ uri: 'litho://design-guide/examples' })
    expect((examples.contents[0] as { text: string }).text).toBe(getGuideSection('examples'))
  })
})

describe('get_render_config gives ready requests', () => {
  it('mcp › a GET URL with format, variation and an override, a POST with a JSON body, and where a render key comes from; both render', async () => {
    const document = { version: 2, width: 200, height: 100, background: '#ffffff', components: [{ type: 'text', key: 'title', width: 200, height: 100, text: 'Hi there' }], variations: [{ id: 'wide', width: 400, height: 100 }] }
    const { _id } = (await call('create_design', { name: 'Renderable', document, publish: true })).structuredContent as { _id: string }
    const config = (await call('get_render_config', { id: _id })).structuredContent as {
      render: string
      examples: { get: { url: string; headers: Record<string, string> }; post: { method: string; url: string; headers: Record<string, string>; body: Record<string, unknown> }; renderKey: string }
    }
    expect(config.examples.get.url).toBe(`${config.render}?format=png&variation=wide&title.text=Hi+there`)
    expect(config.examples.post).toEqual({ method: 'POST', url: `${config.render}?format=webp&quality=90`, headers: { 'dma-api-key': '<render key>', 'content-type': 'application/json' }, body: { variation: 'wide', 'title.text': 'Hi there' } })
    expect(config.examples.renderKey).toMatch(/POST \{base_url\}\/settings\/api-keys[\s\S]*litho keys create/)
    const key = await h.createKey(user)
    const get = await h.fetch(new URL(config.examples.get.url).pathname + new URL(config.examples.get.url).search, { headers: { 'dma-api-key': key } })
    expect(get.status).toBe(200)
    expect(sniff(new Uint8Array(await get.arrayBuffer()))).toBe('png')
    const url = new URL(config.examples.post.url)
    const post = await h.fetch(url.pathname + url.search, { method: 'POST', headers: { ...config.examples.post.headers, 'dma-api-key': key }, body: JSON.stringify(config.examples.post.body) })
    expect(post.status).toBe(200)
    expect(sniff(new Uint8Array(await post.arrayBuffer()))).toBe('webp')
  })
})
