import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createStatReadCache } from '../src/kit/stat-read-cache.js'
import { fsDesignStore } from '../src/index.js'
import { setupTempDir } from './_backends.js'

const root = setupTempDir('litho-stat-read-cache-')
let dirs = 0
const freshDir = () => {
  const dir = join(root, `case-${++dirs}`)
  mkdirSync(dir, { recursive: true })
  return dir
}

/** What another process does to a record: a new file renamed over it (the atomic fs driver), or a write in place. */
function rewrite(path: string, text: string, how: 'rename' | 'in-place'): void {
  if (how === 'in-place') return writeFileSync(path, text)
  writeFileSync(`${path}.other-process`, text)
  renameSync(`${path}.other-process`, path)
}

describe('fs stores: a read cache that another process cannot make stale', () => {
  it('a record rewritten by another process (renamed over) is read anew on the very next call', async () => {
    const base = freshDir()
    const designs = fsDesignStore({ base })
    const record = { id: 'd_1', ownerId: 'u_1', name: 'Card', renderCode: 'ABCDEFGHIJKLMNOP', design: { version: 2, width: 10, height: 10, components: [] }, draft: null, createdAt: '2026-11-26T00:00:00.000Z', updatedAt: '2026-11-26T00:00:00.000Z' }
    await designs.create(record)
    expect((await designs.get('d_1'))?.name).toBe('Card')
    const file = readdirSync(base, { recursive: true }).map(String).find((name) => name.endsWith('d_1'))!
    const path = join(base, file)
    // An in-place write of the same size within one tick of the file system's clock would keep
    // every field stat gives (see kit/stat-read-cache): the names differ in length.
    for (const [index, how] of (['rename', 'in-place', 'rename'] as const).entries()) {
      const name = `Renamed${'!'.repeat(index + 1)}`
      rewrite(path, readFileSync(path, 'utf8').replace(/"name":"[^"]*"/, `"name":"${name}"`), how)
      expect((await designs.get('d_1'))?.name).toBe(name)
    }
    rmSync(path)
    expect(await designs.get('d_1')).toBeNull()
  })

  it('a hit hands out the same content without reading the file; a write through the store is seen at once', async () => {
    const base = freshDir()
    const designs = fsDesignStore({ base })
    const record = { id: 'd_2', ownerId: 'u_1', name: 'One', renderCode: 'BCDEFGHIJKLMNOPQ', design: null, draft: { version: 2, width: 10, height: 10, components: [] }, createdAt: '2026-11-26T00:00:00.000Z', updatedAt: '2026-11-26T00:00:00.000Z' }
    await designs.create(record)
    await designs.update({ ...record, name: 'Two', updatedAt: '2026-11-26T00:00:01.000Z' })
    expect((await designs.get('d_2'))?.name).toBe('Two')
    // Each caller still gets its own copy to change.
    const first = await designs.get('d_2')
    first!.name = 'changed by a caller'
    expect((await designs.get('d_2'))?.name).toBe('Two')
  })

  it('is bounded in bytes: a file larger than a quarter of the bound is never kept, and old entries make room', async () => {
    const dir = freshDir()
    const cache = createStatReadCache(4096)
    const big = join(dir, 'big')
    writeFileSync(big, 'x'.repeat(2000))
    expect(await cache.read(big)).toHaveLength(2000)
    // Not kept: a second read is a new Buffer with the new content of an in-place write of the same size.
    const first = await cache.read(big)
    expect(await cache.read(big)).not.toBe(first)
    const small = Array.from({ length: 8 }, (_, i) => join(dir, `small-${i}`))
    for (const path of small) writeFileSync(path, 'y'.repeat(900))
    const kept = await cache.read(small[0]!)
    expect(await cache.read(small[0]!)).toBe(kept)
    for (const path of small.slice(1)) await cache.read(path)
    // 8 × 900 bytes do not fit in 4096: the least recently used (the first) was dropped.
    expect(await cache.read(small[0]!)).not.toBe(kept)
    expect(await cache.read(join(dir, 'missing'))).toBeNull()
    expect(await cache.read(dir)).toBeNull()
  })
})
