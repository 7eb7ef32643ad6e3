// A scripted agent session over MCP (the official SDK v2 client, in-process): it learns the
// document format only from `get_design_guide`, builds a design from scratch (text, image,
// shape, QR code, a group with auto-layout, a second variation), provokes a validation error and
// fixes it from the error text alone, previews, publishes, and finally renders through the
// render endpoint with a render key and an override taken from `get_render_config`.
import type { Client } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserRecord } from '@litho/core/contracts'
import { RENDER_URL, createHarness, sniff, type Harness } from './_harness.js'
import { connectMcp, textOf, type ToolResult } from './_mcp.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'

let h: Harness
let user: UserRecord
const { accessToken } = oauthHelpers(() => h)
const MCP = `${RENDER_URL}/api/mcp`

beforeAll(async () => {
  h = await createHarness({ withOAuth: {} })
  user = await h.createUser('pro', PASSWORD)
})
afterAll(() => h.close())

async function connect(scope = 'read write'): Promise<{ call: (name: string, args?: Record<string, unknown>) => Promise<ToolResult>; client: Client }> {
  return connectMcp(h, await accessToken(user, { scope, resource: MCP }), 'scripted-agent')
}

/** The first JSON example inside the guide's `### <heading>` section. */
function exampleOf(guide: string, heading: string): Record<string, unknown> {
  const start = guide.indexOf(`\n### ${heading}\n`)
  expect(start, `the guide has a "${heading}" section`).toBeGreaterThan(0)
  const end = guide.indexOf('\n##', start + 5)
  const section = guide.slice(start, end === -1 ? undefined : end)
  const block = /```json\n([\s\S]*?)\n```/.exec(section)
  expect(block, `the "${heading}" section has a JSON example`).not.toBeNull()
  return JSON.parse(block![1]!) as Record<string, unknown>
}

/** Removes the value at a JSON path like `document.components[2].fontSize` from `root`. */
function removeAt(root: Record<string, unknown>, path: string): void {
  const steps = path.replace(/^document\.?/, '').match(/[^.[\]]+/g)!
  let node: unknown = root
  for (const step of steps.slice(0, -1)) node = (node as Record<string, unknown>)[step]
  delete (node as Record<string, unknown>)[steps.at(-1)!]
}

describe('a scripted agent session', () => {
  it('builds a design from the guide alone, fixes its own mistake, previews, publishes and renders it with overrides', async () => {
    const { call, client } = await connect()

    // 1. Learn the format.
    const guide = textOf(await call('get_design_guide'))
    const examples = textOf(await call('get_design_guide', { section: 'examples' }))
    const components = ['shape', 'image', 'text', 'qrcode', 'group'].map((type) => exampleOf(examples, type))
    expect(components.map((c) => c.type)).toEqual(['shape', 'image', 'text', 'qrcode', 'group'])
    expect((components[4]!.layout as Record<string, unknown>).direction).toBeDefined()
    const textKey = components[2]!.key as string
    // The guide's Variation table names id, name, width and height.
    expect(guide).toMatch(/### Variation[\s\S]*`id`[\s\S]*`width`[\s\S]*`height`/)
    const document: Record<string, unknown> = {
      version: 2,
      width: 1080,
      height: 1080,
      background: '#ffffff',
      components,
      variations: [{ id: 'story', name: 'Story', width: 1080, height: 1920 }],
    }

    // 2. A mistake on purpose: a font size far outside its range.
    ;(components[2] as Record<string, unknown>).fontSize = 50_000
    const refused = await call('create_design', { name: 'Agent card', document })
    expect(refused.isError).toBe(true)
    const problems = [...textOf(refused).matchAll(/^- (\S+): (.*)$/gm)]
    expect(problems.length).toBeGreaterThan(0)
    const [, path] = problems[0]!
    expect(path).toBe('document.components[2].fontSize')
    expect(await h.designs.listByOwner(user.id, { offset: 0, limit: 10 })).toMatchObject({ total: 0 })

    // 3. Fix it from the error alone (drop the offending field: the guide gives it a default).
    for (const [, p] of problems) removeAt(document, p!)
    const created = await call('create_design', { name: 'Agent card', document })
    expect(created.isError, textOf(created)).toBeFalsy()
    const record = created.structuredContent as { _id: string; renderCode: string; state: string; published: boolean; changes: unknown }
    expect(record).toMatchObject({ state: 'draft', published: false, changes: 'created' })

    // 4. Look at it: an image no larger than 1024 on its long side, then the story variation.
    for (const variation of ['master', 'story']) {
      const preview = await call('render_preview', { id: record._id, variation })
      expect(preview.isError, textOf(preview)).toBeFalsy()
      const image = preview.content.find((c) => c.type === 'image')!
      expect(image.mimeType).toBe('image/png')
      const png = Buffer.from(image.data!, 'base64')
      expect(sniff(new Uint8Array(png))).toBe('png')
      const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)]
      expect(Math.max(width, height)).toBeLessThanOrEqual(1024)
      if (variation === 'story') expect(height).toBeGreaterThan(width)
      expect(textOf(preview)).toContain(`variation ${variation}`)
    }

    // 5. Not renderable before publishing; publish; then the render config says how to render.
    const key = await h.createKey(user)
    expect((await h.fetch(`/v1/${record.renderCode}`, { headers: { 'dma-api-key': key } })).status).toBe(404)
    const published = await call('publish_design', { id: record._id })
    expect((published.structuredContent as { draft?: unknown; design: unknown }).design).toBeTruthy()
    const config = (await call('get_render_config', { id: record._id })).structuredContent as { render: string; data: { flatten: Record<string, unknown> }; variations: Array<{ id: string }> }
    expect(config.render).toBe(`${RENDER_URL}/v1/${record.renderCode}`)
    expect(config.variations.map((v) => v.id)).toEqual(['master', 'story'])
    const override = `${textKey}.text`
    expect(Object.keys(config.data.flatten)).toContain(override)

    // 6. Render it with a render key, twice with different text: the override takes effect.
    const renderWith = async (text: string) => {
      const url = new URL(config.render)
      url.searchParams.set(override, text)
      url.searchParams.set('format', 'png')
      const response = await h.fetch(url.pathname + url.search, { headers: { 'dma-api-key': key } })
      expect(response.status).toBe(200)
      expect(response.headers.get('x-litho-ignored-overrides')).toBeNull()
      return Buffer.from(await response.arrayBuffer())
    }
    const [hello, goodbye] = [await renderWith('Hello from an agent'), await renderWith('Goodbye')]
    expect(sniff(new Uint8Array(hello))).toBe('png')
    expect(hello.equals(goodbye)).toBe(false)
    await client.close()
  }, 60_000)

  it('reports every problem of a patch with its path and the keys that exist', async () => {
    const { call, client } = await connect()
    const text = exampleOf(textOf(await call('get_design_guide', { section: 'examples' })), 'text')
    const created = await call('create_design', { name: 'Patch me', document: { version: 2, width: 600, height: 400, components: [text] } })
    const { _id } = created.structuredContent as { _id: string }
    const wrong = await call('update_design', { id: _id, patch: { components: { titel: { text: 'x' } } } })
    expect(wrong.isError).toBe(true)
    expect(textOf(wrong)).toMatch(/patch\.components\.titel/)
    expect(textOf(wrong)).toContain(String(text.key))
    const right = await call('update_design', { id: _id, patch: { components: { [String(text.key)]: { text: 'Patched' } } } })
    expect(right.isError, textOf(right)).toBeFalsy()
    expect(right.structuredContent).toMatchObject({ _id, state: 'draft', changes: { components: { added: [], removed: [], changed: [{ key: text.key, fields: ['text'] }] }, fields: [] } })
    const design = (await call('get_design', { id: _id })).structuredContent as { draft: { components: Array<{ text: string }> } }
    expect(design.draft.components[0]!.text).toBe('Patched')
    await client.close()
  }, 30_000)

  it('an invalid document: component and variation-patch problems in one answer, each listed once', async () => {
    const { call, client } = await connect()
    const wrong = await call('create_design', {
      name: 'Talk',
      document: {
        version: 2, width: 600, height: 400,
        components: [{ type: 'text', key: 'talk-title', width: 500, height: 80, text: 'Hi', fontSize: 'big' }],
        variations: [{ id: 'story', width: 400, height: 700, components: { 'talk-titel': { y: 300 } } }],
      },
    })
    expect(wrong.isError).toBe(true)
    const lines = textOf(wrong).split('\n')
    const fontSize = lines.filter((line) => line.includes('document.components[0].fontSize'))
    const patch = lines.filter((line) => line.includes('document.variations[0].components.talk-titel'))
    expect(fontSize).toHaveLength(1)
    expect(patch).toEqual(['- document.variations[0].components.talk-titel: expected the key of a component, received "talk-titel"; did you mean "talk-title"?'])
    await client.close()
  })

  it('previews by the owner are not metered', async () => {
    const { call, client } = await connect()
    const created = await call('create_design', { name: 'Free preview', document: { version: 2, width: 200, height: 200, components: [] } })
    const { _id } = created.structuredContent as { _id: string }
    const usage = () => h.meter.usage({ subject: user.id, window: '2026-11' })
    const before = await usage()
    for (let i = 0; i < 3; i++) expect((await call('render_preview', { id: _id })).isError).toBeFalsy()
    expect(await usage()).toBe(before)
    await client.close()
  }, 30_000)

  it('a read token can read but not create', async () => {
    const { call, client } = await connect('read')
    expect((await call('list_designs')).isError).toBeFalsy()
    await expect(call('create_design', { name: 'Nope', document: { version: 2, width: 10, height: 10, components: [] } })).rejects.toThrow()
    await client.close()
  }, 30_000)
})
