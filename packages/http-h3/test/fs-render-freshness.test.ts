// GET renders on the filesystem stores, which keep large records parsed and validated designs
// while their content is unchanged (docs/performance.md, "Where the time of a cached GET goes"):
// a publish and a revoked key must still count from the very next request.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import type { RenderResult, ResolvedDocument } from '@litho/core'
import { createRenderKey } from '@litho/auth-adapters'
import { fsAccountStore, fsDesignStore, fsMeter } from '@litho/storage-adapters'
import { createHarness } from './_harness.js'

const dir = mkdtempSync(join(tmpdir(), 'litho-fs-fresh-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// A design record well over the stores' 16 KB threshold: a 40 KB data URI.
const photo = `data:image/png;base64,${'A'.repeat(40_000)}`
const document = (background: string) => ({
  version: 2,
  width: 200,
  height: 100,
  background,
  components: [
    { key: 'title', type: 'text', width: 200, height: 50, text: 'Hi', dynamic: ['text'] },
    { key: 'photo', type: 'image', y: 50, width: 50, height: 50, src: photo },
  ],
})

it('fs stores › a publish is rendered and a deactivated key refused on the very next GET', async () => {
  const seen: ResolvedDocument[] = []
  const renderer = {
    render: async (): Promise<RenderResult> => {
      throw new Error('unused')
    },
    renderResolved: async (resolved: ResolvedDocument): Promise<RenderResult> => {
      seen.push(resolved)
      return { bytes: new Uint8Array([137, 80, 78, 71]), contentType: 'image/png', format: 'png', width: resolved.width, height: resolved.height, variation: resolved.variation, warnings: [] }
    },
    close: async () => {},
  }
  const designs = fsDesignStore({ base: join(dir, 'designs') })
  const accounts = fsAccountStore({ base: join(dir, 'accounts') })
  const h = await createHarness({ designs, accounts, meter: fsMeter({ base: join(dir, 'meter') }), renderer })
  const at = '2026-11-23T12:00:00.000Z'
  await accounts.createUser({ id: 'u_fresh', email: 'fresh@example.com', passwordHash: 'scrypt$test', plan: 'pro', createdAt: at, updatedAt: at })
  const key = createRenderKey()
  await accounts.createKey({ id: key.id, userId: 'u_fresh', name: 'test', hash: key.hash, prefix: key.displayPrefix, active: true, createdAt: at, lastUsedAt: null })
  const record = { id: 'd_fresh', ownerId: 'u_fresh', name: 'Card', renderCode: 'rc_fresh_0123456789', design: document('#ffffff'), draft: null, createdAt: at, updatedAt: at }
  await designs.create(record)
  const get = (title: string) => h.fetch(`/v1/${record.renderCode}?format=png&title.text=${title}`, { headers: { 'dma-api-key': key.secret } })

  for (const title of ['One', 'Two']) expect((await get(title)).status).toBe(200)
  expect(seen.map((r) => [r.document.background, r.document.components[0]])).toEqual([
    ['#ffffff', expect.objectContaining({ text: 'One' })],
    ['#ffffff', expect.objectContaining({ text: 'Two' })],
  ])

  // Published again (by anyone writing the same data dir: a second store stands for the CLI).
  await fsDesignStore({ base: join(dir, 'designs') }).update({ ...record, design: document('#000000'), updatedAt: '2026-11-23T12:00:01.000Z' })
  expect((await get('Three')).status).toBe(200)
  expect(seen[2]!.document.background).toBe('#000000')
  expect((seen[2]!.document.components[1] as { src: string }).src).toBe(photo)

  await fsAccountStore({ base: join(dir, 'accounts') }).setKeyActive(key.id, false)
  expect((await get('Four')).status).toBe(401)
  expect(seen).toHaveLength(3)
  await h.close()
})
