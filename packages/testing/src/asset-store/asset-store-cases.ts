/**
 * The cases of the asset-store conformance suite, as data: a stable title, whether a case needs
 * a persistent store, and a function that throws when the store breaks the contract.
 *
 * @module asset-store/asset-store-cases
 */
import type { AssetRecord, AssetStore } from '@litho/core/contracts'
import { LithoError } from '@litho/core/contracts'
import { expect } from 'vitest'
import { expectInvalid, INVALID_IDS } from '../_expect.js'
import { createRunPrefix } from '../_suite.js'

/** What a case gets: the suite's store, the factory, and records with ids unique to this run. */
export interface AssetStoreCaseContext {
  /** The store created for the suite (disposed after the last case). */
  store: AssetStore
  /** Creates another store over the same storage; the case disposes it. */
  create: () => Promise<AssetStore>
  /** A valid record with a fresh id, owned by `owner()` unless `fields` says otherwise. */
  asset: (fields?: Partial<AssetRecord>) => AssetRecord
  /** A fresh owner id of this run. */
  owner: () => string
}

/** One case of the suite. */
export interface AssetStoreCase {
  /** Stable title, `asset store › <behaviour>`; also the name to skip it by. */
  title: string
  /** Skipped unless the caller declares the store persistent. */
  needsPersistent?: boolean
  run: (context: AssetStoreCaseContext) => Promise<void>
}

/** Builds the per-run helpers of {@link AssetStoreCaseContext}. */
export function createAssetStoreCaseContext(store: AssetStore, create: () => AssetStore | Promise<AssetStore>, prefix = createRunPrefix()): AssetStoreCaseContext {
  let sequence = 0
  const owner = () => `${prefix}_u${++sequence}`
  return {
    store,
    create: async () => create(),
    owner,
    asset: (fields = {}) => {
      const n = ++sequence
      return { id: `${prefix}_a${n}`, owner: fields.owner ?? `${prefix}_u0`, name: `logo-${n}.png`, contentType: 'image/png', width: 64, height: 32, bytes: 1000 + n, createdAt: '2026-01-01T00:00:00.000Z', ...fields }
    },
  }
}

/** Every case, in the order they run. */
export const assetStoreCases: readonly AssetStoreCase[] = [
  {
    title: 'asset store › put then get returns the record; an unknown id is null',
    async run({ store, asset }) {
      const record = asset()
      await store.put(record)
      expect(await store.get(record.id)).toEqual(record)
      expect(await store.get(`${record.id}x`), 'an unknown id').toBeNull()
    },
  },
  {
    title: 'asset store › a second put of the same id is ERR_STORE_CONFLICT and changes nothing',
    async run({ store, asset }) {
      const record = asset()
      await store.put(record)
      const error = await store.put({ ...record, name: 'other.png' }).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(LithoError.isInstance(error) && error.code, 'the second put').toBe('ERR_STORE_CONFLICT')
      expect(await store.get(record.id)).toEqual(record)
    },
  },
  {
    title: 'asset store › delete removes once, says whether it did, and the list forgets it',
    async run({ store, asset, owner }) {
      const who = owner()
      const record = asset({ owner: who })
      await store.put(record)
      expect(await store.delete(record.id)).toBe(true)
      expect(await store.get(record.id)).toBeNull()
      expect(await store.delete(record.id), 'a second delete').toBe(false)
      expect(await store.listByOwner(who, { offset: 0, limit: 10 })).toEqual({ items: [], total: 0 })
    },
  },
  {
    title: "asset store › listByOwner pages the owner's records newest first (ties by id), never another owner's",
    async run({ store, asset, owner }) {
      const who = owner()
      const other = owner()
      const records = [
        asset({ owner: who, createdAt: '2026-01-01T00:00:01.000Z' }),
        asset({ owner: who, createdAt: '2026-01-01T00:00:03.000Z' }),
        asset({ owner: who, createdAt: '2026-01-01T00:00:02.000Z' }),
        asset({ owner: who, createdAt: '2026-01-01T00:00:02.000Z' }),
        asset({ owner: who, createdAt: '2026-01-01T00:00:00.000Z' }),
      ]
      await Promise.all([...records, asset({ owner: other })].map((r) => store.put(r)))
      const expected = [records[1]!, ...[records[2]!, records[3]!].sort((a, b) => (a.id < b.id ? -1 : 1)), records[0]!, records[4]!]
      const first = await store.listByOwner(who, { offset: 0, limit: 2 })
      const second = await store.listByOwner(who, { offset: 2, limit: 2 })
      const third = await store.listByOwner(who, { offset: 4, limit: 2 })
      expect([first.total, second.total, third.total]).toEqual([5, 5, 5])
      expect([...first.items, ...second.items, ...third.items]).toEqual(expected)
      expect((await store.listByOwner(who, { offset: 5, limit: 2 })).items, 'past the last').toEqual([])
      expect((await store.listByOwner(other, { offset: 0, limit: 10 })).total).toBe(1)
    },
  },
  {
    title: 'asset store › records survive a new store over the same storage',
    needsPersistent: true,
    async run({ store, asset, create }) {
      const record = asset()
      await store.put(record)
      const again = await create()
      try {
        expect(await again.get(record.id)).toEqual(record)
      } finally {
        await again.dispose?.()
      }
    },
  },
  {
    title: 'asset store › invalid input rejects with a coded TypeError and stores nothing',
    async run({ store, asset }) {
      const base = asset()
      await expectInvalid([
        ...INVALID_IDS.map(([label, value, code]): [string, () => Promise<unknown>, typeof code] => [`get with an id ${label}`, () => store.get(value as string), code]),
        ['an owner outside the alphabet', () => store.put({ ...base, owner: 'a/b' }), 'ERR_INVALID_ARG_VALUE'],
        ['a content type that is not an image', () => store.put({ ...base, contentType: 'text/html' }), 'ERR_INVALID_ARG_VALUE'],
        ['width 0', () => store.put({ ...base, width: 0 }), 'ERR_INVALID_ARG_VALUE'],
        ['negative bytes', () => store.put({ ...base, bytes: -1 }), 'ERR_INVALID_ARG_VALUE'],
        ['an empty name', () => store.put({ ...base, name: '' }), 'ERR_INVALID_ARG_VALUE'],
        ['a createdAt that is not a timestamp', () => store.put({ ...base, createdAt: 'yesterday' }), 'ERR_INVALID_ARG_VALUE'],
        ['limit 0', () => store.listByOwner(base.owner, { offset: 0, limit: 0 }), 'ERR_INVALID_ARG_VALUE'],
        ['limit 1001', () => store.listByOwner(base.owner, { offset: 0, limit: 1001 }), 'ERR_INVALID_ARG_VALUE'],
        ['offset -1', () => store.listByOwner(base.owner, { offset: -1, limit: 1 }), 'ERR_INVALID_ARG_VALUE'],
      ])
      expect(await store.get(base.id), 'nothing was stored').toBeNull()
    },
  },
]
