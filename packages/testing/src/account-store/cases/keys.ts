/**
 * Account store cases: keys.
 *
 * @module account-store/cases/keys
 */
import type { KeyRecord } from '@litho/core/contracts'
import { expect } from 'vitest'
import { eventually } from '../../_expect.js'
import { expectConflict, expectOneWins, type AccountStoreCase } from '../account-store-kit.js'

/** The account store cases of this topic: keys. */
export const keysCases: readonly AccountStoreCase[] = [
  {
    title: 'account store › createKey then getKey and findKeyByHash return every field',
    async run({ store, key, user }) {
      const created = key(user().id, { name: 'CI — 夏 "quoted"', lastUsedAt: '2026-01-02T00:00:00.000Z' })
      await store.createKey(created)
      expect(await store.getKey(created.id)).toEqual(created)
      expect(await store.findKeyByHash(created.hash)).toEqual(created)
    },
  },
  {
    title: 'account store › getKey and findKeyByHash of unknown ones return null',
    async run({ store, key, user }) {
      const missing = key(user().id)
      expect(await store.getKey(missing.id)).toBeNull()
      expect(await store.findKeyByHash(missing.hash)).toBeNull()
    },
  },
  {
    title: 'account store › returned keys are copies',
    async run({ store, key, user }) {
      const created = key(user().id)
      const original = { ...created }
      await store.createKey(created)
      created.active = false
      const first = (await store.getKey(original.id)) as KeyRecord
      expect(first).toEqual(original)
      first.active = false
      expect(await store.getKey(original.id)).toEqual(original)
      const byHash = (await store.findKeyByHash(original.hash)) as KeyRecord
      byHash.active = false
      expect(await store.findKeyByHash(original.hash)).toEqual(original)
      const [listed] = await store.listKeys(original.userId, { limit: 10 })
      ;(listed as KeyRecord).active = false
      expect(await store.findKeyByHash(original.hash)).toEqual(original)
    },
  },
  {
    title: 'account store › createKey rejects a reused id with ERR_STORE_CONFLICT (field id) and keeps the first',
    async run({ store, key, user }) {
      const first = key(user().id)
      await store.createKey(first)
      const second = key(user().id, { id: first.id })
      await expectConflict(store.createKey(second), 'id')
      expect(await store.getKey(first.id)).toEqual(first)
      expect(await store.findKeyByHash(second.hash)).toBeNull()
    },
  },
  {
    title: 'account store › createKey rejects a reused hash with ERR_STORE_CONFLICT (field hash) and keeps the first',
    async run({ store, key, user }) {
      const first = key(user().id)
      await store.createKey(first)
      const second = key(user().id, { hash: first.hash })
      await expectConflict(store.createKey(second), 'hash')
      expect(await store.getKey(second.id)).toBeNull()
      expect(await store.findKeyByHash(first.hash)).toEqual(first)
    },
  },
  {
    title: 'account store › concurrent createKey of one id or one hash: exactly one succeeds',
    async run({ store, key, user }) {
      const owner = user().id
      const byId = key(owner)
      await expectOneWins(Array.from({ length: 5 }, () => store.createKey({ ...key(owner), id: byId.id })), 'id')
      const byHash = key(owner)
      const sameHash = Array.from({ length: 5 }, () => key(owner, { hash: byHash.hash }))
      await expectOneWins(sameHash.map((k) => store.createKey(k)), 'hash')
      const found = await store.findKeyByHash(byHash.hash)
      expect(sameHash).toContainEqual(found)
      expect(await store.listKeys(owner, { limit: 100 }), 'keys listed: one per id, one per hash').toHaveLength(2)
    },
  },
  {
    title: 'account store › setKeyActive(false) then findKeyByHash shows active false; true again reactivates',
    async run({ store, key, user }) {
      const created = key(user().id)
      await store.createKey(created)
      expect(await store.setKeyActive(created.id, false)).toBe(true)
      expect(await store.findKeyByHash(created.hash)).toEqual({ ...created, active: false })
      expect(await store.getKey(created.id)).toEqual({ ...created, active: false })
      expect(await store.setKeyActive(created.id, false), 'deactivating twice').toBe(true)
      expect(await store.setKeyActive(created.id, true)).toBe(true)
      expect(await store.findKeyByHash(created.hash)).toEqual(created)
      expect(await store.setKeyActive(key(created.userId).id, false), 'an unknown key').toBe(false)
    },
  },
  {
    title: 'account store › deleteKey then findKeyByHash and getKey return null; the hash can be used again',
    async run({ store, key, user }) {
      const owner = user().id
      const kept = key(owner)
      const deleted = key(owner, { createdAt: '2026-01-02T00:00:00.000Z' })
      await store.createKey(kept)
      await store.createKey(deleted)
      expect(await store.deleteKey(deleted.id)).toBe(true)
      expect(await store.findKeyByHash(deleted.hash)).toBeNull()
      expect(await store.getKey(deleted.id)).toBeNull()
      expect(await store.listKeys(owner, { limit: 100 })).toEqual([kept])
      expect(await store.deleteKey(deleted.id), 'a second delete').toBe(false)
      expect(await store.setKeyActive(deleted.id, true), 'setKeyActive after delete').toBe(false)
      await store.markKeyUsed(deleted.id, '2026-01-03T00:00:00.000Z')
      expect(await store.getKey(deleted.id), 'markKeyUsed after delete creates nothing').toBeNull()
      expect(await store.findKeyByHash(kept.hash)).toEqual(kept)
      const again = key(owner, { hash: deleted.hash })
      await store.createKey(again)
      expect(await store.findKeyByHash(deleted.hash)).toEqual(again)
    },
  },
  {
    title: 'account store › markKeyUsed sets lastUsedAt, seen by getKey and findKeyByHash',
    async run({ store, key, user }) {
      const created = key(user().id)
      await store.createKey(created)
      await store.markKeyUsed(created.id, '2026-01-05T00:00:00.000Z')
      const used = { ...created, lastUsedAt: '2026-01-05T00:00:00.000Z' }
      await eventually(async () => expect(await store.getKey(created.id)).toEqual(used))
      expect(await store.findKeyByHash(created.hash)).toEqual(used)
      await expect(store.markKeyUsed(key(created.userId).id, '2026-01-05T00:00:00.000Z'), 'an unknown key').resolves.toBeUndefined()
    },
  },
  {
    title: 'account store › listKeys returns newest first, ties by id, at most limit',
    async run({ store, key, user }) {
      const owner = user().id
      const at = (day: number) => `2026-04-0${day}T00:00:00.000Z`
      const keys = [
        key(owner, { createdAt: at(1) }),
        key(owner, { createdAt: at(3) }),
        key(owner, { createdAt: at(2) }),
        key(owner, { createdAt: at(2) }),
        // The same instant written another way sorts as the same time.
        key(owner, { createdAt: '2026-04-02T02:00:00+02:00' }),
      ]
      for (const k of [...keys].reverse()) await store.createKey(k)
      const [oldest, newest, tieA, tieB, tieC] = keys as [KeyRecord, KeyRecord, KeyRecord, KeyRecord, KeyRecord]
      const ties = [tieA, tieB, tieC].sort((a, b) => (a.id < b.id ? -1 : 1))
      const expected = [newest, ...ties, oldest]
      await eventually(async () => expect(await store.listKeys(owner, { limit: 100 })).toEqual(expected))
      expect(await store.listKeys(owner, { limit: 2 })).toEqual(expected.slice(0, 2))
      expect(await store.listKeys(owner, { limit: 1 })).toEqual(expected.slice(0, 1))
      expect(await store.listKeys(user().id, { limit: 100 }), 'a user without keys').toEqual([])
    },
  },
  {
    title: 'account store › listKeys pages with offset, in the same order',
    async run({ store, key, user }) {
      const owner = user().id
      const keys = Array.from({ length: 5 }, (_, day) => key(owner, { createdAt: `2026-05-0${day + 1}T00:00:00.000Z` }))
      for (const k of keys) await store.createKey(k)
      const newestFirst = [...keys].reverse()
      await eventually(async () => expect(await store.listKeys(owner, { limit: 100 })).toEqual(newestFirst))
      expect(await store.listKeys(owner, { limit: 2, offset: 0 })).toEqual(newestFirst.slice(0, 2))
      expect(await store.listKeys(owner, { limit: 2, offset: 2 })).toEqual(newestFirst.slice(2, 4))
      expect(await store.listKeys(owner, { limit: 2, offset: 4 })).toEqual(newestFirst.slice(4))
      expect(await store.listKeys(owner, { limit: 2, offset: 5 }), 'past the end').toEqual([])
      await expect(store.listKeys(owner, { limit: 2, offset: -1 }), 'a negative offset').rejects.toMatchObject({ code: 'ERR_INVALID_ARG_VALUE' })
    },
  },
  {
    title: 'account store › listKeys keeps users apart, even when one id is a prefix of another',
    async run({ store, key, user }) {
      const base = user().id
      const owners = [base, `${base}1`, `${base}-1`]
      const keys = owners.map((owner) => key(owner))
      for (const k of keys) await store.createKey(k)
      await eventually(async () => {
        for (const [index, owner] of owners.entries()) expect(await store.listKeys(owner, { limit: 100 }), owner).toEqual([keys[index]])
      })
    },
  },
  {
    title: 'account store › 30 concurrent createKey for one user all appear in the list',
    async run({ store, key, user }) {
      const owner = user().id
      const keys = Array.from({ length: 30 }, (_, index) => key(owner, { createdAt: `2026-06-01T00:00:${String(index).padStart(2, '0')}.000Z` }))
      await Promise.all(keys.map((k) => store.createKey(k)))
      await eventually(async () => expect(await store.listKeys(owner, { limit: 100 })).toEqual([...keys].reverse()))
    },
  },
]
