// The asset-store suite fails on stores that break the contract: one that lists another owner's
// records or in insertion order, one that lets a second put replace a record, one that accepts
// anything; so a store that passes it is shown to keep those rules (the stores of
// @litho/storage-adapters pass it in their own test, asset-store.test.ts).
import type { AssetRecord, AssetStore } from '@litho/core/contracts'
import { describe, expect, it } from 'vitest'
import { assetStoreCases, createAssetStoreCaseContext } from '../src/asset-store/asset-store-cases.js'

const caseTitled = (pattern: RegExp) => {
  const found = assetStoreCases.filter((c) => pattern.test(c.title))
  if (found.length !== 1) throw new Error(`expected one case matching ${pattern}, found ${found.length}`)
  return found[0]!
}
const run = (pattern: RegExp, store: AssetStore) => caseTitled(pattern).run(createAssetStoreCaseContext(store, () => store))

describe('asset store conformance › control', () => {
  it('the list case fails for a store that lists everyone in insertion order', async () => {
    await expect(run(/listByOwner pages/, naiveStore())).rejects.toThrow()
  })

  it('the conflict case fails for a store whose second put replaces the record', async () => {
    await expect(run(/second put of the same id/, naiveStore())).rejects.toThrow(/the second put/)
  })

  it('the input case fails for a store that accepts anything', async () => {
    await expect(run(/invalid input/, naiveStore())).rejects.toThrow()
  })
})

/** WRONG on purpose: a map with no checks, puts that replace, lists of every record in insertion order. */
function naiveStore(): AssetStore {
  const records = new Map<string, AssetRecord>()
  return {
    name: 'naive',
    put: async (record) => void records.set(record.id, { ...record }),
    get: async (id) => (records.has(id) ? { ...records.get(id)! } : null),
    delete: async (id) => records.delete(id),
    listByOwner: async (_owner, { offset, limit }) => ({ items: [...records.values()].slice(offset, offset + limit), total: records.size }),
  }
}
