/**
 * Auth state store cases: expiry (two cases that wait for a one-second TTL).
 *
 * @module auth-state-store/cases/expiry
 */
import { expect } from 'vitest'
import { eventually } from '../../_expect.js'
import { EXPIRY_WAIT_MS, TTL, type AuthStateStoreCase } from '../auth-state-store-kit.js'

/** The auth state store cases of this topic: expiry (two cases that wait for a one-second TTL). */
export const expiryCases: readonly AuthStateStoreCase[] = [
  {
    title: 'auth state store › a value written with ttlSeconds expires; without ttlSeconds it stays',
    async run({ store, key }) {
      const bySet = key('ttl-set')
      const bySwap = key('ttl-swap')
      const byAdd = key('ttl-add')
      const setAgain = key('ttl-set-again')
      const swappedAgain = key('ttl-swapped-again')
      const noTtl = key('ttl-none')
      const longTtl = key('ttl-long')
      await store.set(bySet, { by: 'set' }, TTL)
      expect(await store.swap(bySwap, { by: 'swap' }, TTL)).toBeNull()
      expect(await store.add(byAdd, { by: 'add' }, TTL)).toBe(true)
      // Written again without ttlSeconds: the value stays (the earlier TTL no longer applies).
      await store.set(setAgain, 1, TTL)
      await store.set(setAgain, 2)
      await store.set(swappedAgain, 1, TTL)
      await store.swap(swappedAgain, 2)
      await store.set(noTtl, { stays: true })
      await store.set(longTtl, { stays: true }, { ttlSeconds: 3600 })
      // Not early: readable right after the write.
      expect(await store.get(bySet)).toEqual({ by: 'set' })
      expect(await store.get(bySwap)).toEqual({ by: 'swap' })
      expect(await store.get(byAdd)).toEqual({ by: 'add' })

      await eventually(async () => {
        expect(await store.get(bySet), 'written by set').toBeNull()
        expect(await store.get(bySwap), 'written by swap').toBeNull()
        expect(await store.get(byAdd), 'written by add').toBeNull()
      }, EXPIRY_WAIT_MS)
      expect(await store.get(setAgain)).toBe(2)
      expect(await store.get(swappedAgain)).toBe(2)
      expect(await store.get(noTtl)).toEqual({ stays: true })
      expect(await store.get(longTtl)).toEqual({ stays: true })
    },
  },
  {
    title: 'auth state store › an expired value is absent to add, swap and delete',
    async run({ store, key }) {
      const forAdd = key('expired-add')
      const forSwap = key('expired-swap')
      const forDelete = key('expired-delete')
      for (const k of [forAdd, forSwap, forDelete]) await store.set(k, { old: true }, TTL)
      await eventually(async () => {
        for (const k of [forAdd, forSwap, forDelete]) expect(await store.get(k), k).toBeNull()
      }, EXPIRY_WAIT_MS)
      expect(await store.add(forAdd, { new: true }), 'add on an expired key').toBe(true)
      expect(await store.get(forAdd)).toEqual({ new: true })
      expect(await store.swap(forSwap, { new: true }), 'swap on an expired key').toBeNull()
      expect(await store.get(forSwap)).toEqual({ new: true })
      expect(await store.delete(forDelete), 'delete of an expired key').toBe(false)
      expect(await store.get(forDelete)).toBeNull()
    },
  },
]
