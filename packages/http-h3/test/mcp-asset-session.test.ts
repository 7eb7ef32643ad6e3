// The done-when of "designs built in one pass": an agent that has never seen Litho builds and
// publishes a speaker card in two sizes, with a photo from its asset library, in at most 10 MCP
// calls, each reply lean (no data URI echoed), and the developer renders both sizes with a key.
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserRecord } from '@litho/core/contracts'
import { memoryAssetStore } from '@litho/storage-adapters/asset-store'
import { createHarness, type Harness } from './_harness.js'
import { MCP_URL, connectMcp, textOf, type ToolResult } from './_mcp.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'

let h: Harness
let user: UserRecord
const { accessToken } = oauthHelpers(() => h)

beforeAll(async () => {
  h = await createHarness({ withOAuth: {}, assets: memoryAssetStore() })
  user = await h.createUser('pro', PASSWORD)
})
afterAll(() => h.close())

describe('an agent session: a two-size card with a photo asset, built and published', () => {
  it('mcp › upload, read the guide, create, preview both sizes, publish, get the render config: 7 calls, then both sizes render', async () => {
    const { client, call: callTool } = await connectMcp(h, await accessToken(user, { scope: 'read write', resource: MCP_URL }), 'speaker-card-agent')
    const calls: string[] = []
    const call = async (name: string, args: Record<string, unknown> = {}): Promise<ToolResult> => {
      calls.push(name)
      const result = await callTool(name, args)
      expect(result.isError, `${name}: ${result.content.map((c) => c.text).join('\n')}`).toBeFalsy()
      return result
    }
    const text = textOf

    // 1. The speaker's photo, into the asset library.
    const photo = await sharp({ create: { width: 800, height: 800, channels: 3, background: '#c2410c' } }).jpeg().toBuffer()
    const asset = (await call('upload_asset', { name: 'speaker.jpg', base64: photo.toString('base64') })).structuredContent as { ref: string }
    expect(asset.ref).toMatch(/^asset:/)
    // 2. The concise guide (the schema is a section of its own).
    const guide = text(await call('get_design_guide'))
    expect(Buffer.byteLength(guide)).toBeLessThanOrEqual(15 * 1024)
    expect(guide).toContain('asset:')
    // 3. One document, both sizes: a square master and a story variation with its own layout.
    const document = {
      version: 2, width: 1080, height: 1080, background: '#0f172a',
      components: [
        { key: 'photo', type: 'image', x: 390, y: 120, width: 300, height: 300, src: asset.ref, fit: 'cover', radius: 150 },
        { key: 'name', type: 'text', x: 90, y: 480, width: 900, height: 110, text: 'Ada Okafor', fontSize: 80, fontWeight: 700, color: '#ffffff', align: 'center', autoFit: { min: 40 }, dynamic: ['text'] },
        { key: 'talk', type: 'text', x: 90, y: 620, width: 900, height: 200, text: 'Rendering at the edge', fontSize: 52, color: '#fbbf24', align: 'center', maxLines: 2, dynamic: ['text'] },
      ],
      variations: [{ id: 'story', name: 'Story', width: 1080, height: 1920, components: { photo: { y: 380, width: 400, height: 400, x: 340, radius: 200 }, name: { y: 900 }, talk: { y: 1040 } } }],
    }
    const created = await call('create_design', { name: 'Speaker card', document })
    const summary = created.structuredContent as { _id: string; renderCode: string; state: string }
    expect(summary.state).toBe('draft')
    expect(text(created)).not.toContain('base64,')
    // 4-5. Look at both sizes: no warnings.
    for (const variation of ['master', 'story']) {
      const preview = await call('render_preview', { id: summary._id, variation, maxSide: 512 })
      expect(text(preview)).toContain('No warnings.')
    }
    // 6-7. Publish, and learn how to render it.
    await call('publish_design', { id: summary._id })
    const config = (await call('get_render_config', { id: summary._id })).structuredContent as { render: string; variations: Array<{ id: string }> }
    expect(config.variations.map((v) => v.id)).toEqual(['master', 'story'])
    expect(calls).toEqual(['upload_asset', 'get_design_guide', 'create_design', 'render_preview', 'render_preview', 'publish_design', 'get_render_config'])
    expect(calls.length).toBeLessThanOrEqual(10)

    // The developer's side: both sizes render with a render key and an override.
    const key = await h.createKey(user)
    for (const [variation, height] of [['master', 1080], ['story', 1920]] as const) {
      const url = new URL(config.render)
      url.searchParams.set('variation', variation)
      url.searchParams.set('name.text', 'Grace Mbeki')
      const response = await h.fetch(url.pathname + url.search, { headers: { 'dma-api-key': key } })
      expect(response.status).toBe(200)
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata()
      expect([meta.width, meta.height]).toEqual([1080, height])
    }
    await client.close()
  }, 90_000)
})
