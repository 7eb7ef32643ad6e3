/**
 * Auth state store cases: swap and add.
 *
 * @module auth-state-store/cases/swap-and-add
 */
import { expect } from 'vitest'
import type { AuthStateStoreCase } from '../auth-state-store-kit.js'

/** The auth state store cases of this topic: swap and add. */
export const swapAndAddCases: readonly AuthStateStoreCase[] = [
  {
    title: 'auth state store › swap on an absent key returns null and writes the value',
    async run({ store, key }) {
      const k = key('swap-absent')
      expect(await store.swap(k, { code: 'abc' })).toBeNull()
      expect(await store.get(k)).toEqual({ code: 'abc' })
    },
  },
  {
    title: 'auth state store › swap returns the previous value and writes the new one',
    async run({ store, key }) {
      const k = key('swap-present')
      await store.set(k, { step: 1 })
      expect(await store.swap(k, { step: 2 })).toEqual({ step: 1 })
      expect(await store.get(k)).toEqual({ step: 2 })
      expect(await store.swap(k, 'three')).toEqual({ step: 2 })
      expect(await store.swap(k, [4])).toBe('three')
      expect(await store.get(k)).toEqual([4])
    },
  },
  {
    title: 'auth state store › add writes only when the key is absent',
    async run({ store, key }) {
      const k = key('add')
      expect(await store.add(k, { first: true })).toBe(true)
      expect(await store.get(k)).toEqual({ first: true })
      expect(await store.add(k, { second: true })).toBe(false)
      expect(await store.get(k), 'a refused add changes nothing').toEqual({ first: true })
      await store.delete(k)
      expect(await store.add(k, { third: true }), 'add after delete').toBe(true)
      expect(await store.get(k)).toEqual({ third: true })
    },
  },
]
