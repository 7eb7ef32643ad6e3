/**
 * Auth state store cases: concurrency: swap and add are exactly-once.
 *
 * @module auth-state-store/cases/concurrency
 */
import { expect } from 'vitest'
import { RACERS, expectOneAdd, expectOneChain, type AuthStateStoreCase } from '../auth-state-store-kit.js'

/** The auth state store cases of this topic: concurrency: swap and add are exactly-once. */
export const concurrencyCases: readonly AuthStateStoreCase[] = [
  {
    title: `auth state store › ${RACERS} concurrent swaps on one key: exactly one sees the value before them, each value is seen once`,
    async run({ store, key }) {
      const k = key('concurrent-swap')
      await store.set(k, { marker: 'original' })
      const results = await Promise.all(Array.from({ length: RACERS }, (_, index) => store.swap(k, { marker: `racer-${index}` })))
      expectOneChain(results, { marker: 'original' }, await store.get(k))
    },
  },
  {
    title: `auth state store › ${RACERS} concurrent swaps on an absent key: exactly one sees null`,
    async run({ store, key }) {
      const k = key('concurrent-swap-absent')
      const results = await Promise.all(Array.from({ length: RACERS }, (_, index) => store.swap(k, { marker: `racer-${index}` })))
      expectOneChain(results, null, await store.get(k))
    },
  },
  {
    title: `auth state store › ${RACERS} concurrent adds on one key: exactly one returns true`,
    async run({ store, key }) {
      const k = key('concurrent-add')
      const results = await Promise.all(Array.from({ length: RACERS }, (_, index) => store.add(k, { marker: `racer-${index}` })))
      expectOneAdd(results, await store.get(k))
    },
  },
  {
    title: `auth state store › ${RACERS} concurrent swaps on two instances: exactly one sees the value before them, each value is seen once`,
    needs: 'shared',
    async run({ store, create, key }) {
      const other = await create()
      try {
        const k = key('shared-swap')
        await store.set(k, { marker: 'original' })
        const results = await Promise.all(Array.from({ length: RACERS }, (_, index) => (index % 2 ? other : store).swap(k, { marker: `racer-${index}` })))
        const final = await other.get(k)
        expect(await store.get(k), 'both instances read the same value').toEqual(final)
        expectOneChain(results, { marker: 'original' }, final)
      } finally {
        await other.dispose?.()
      }
    },
  },
  {
    title: `auth state store › ${RACERS} concurrent adds on two instances: exactly one returns true`,
    needs: 'shared',
    async run({ store, create, key }) {
      const other = await create()
      try {
        const k = key('shared-add')
        const results = await Promise.all(Array.from({ length: RACERS }, (_, index) => (index % 2 ? other : store).add(k, { marker: `racer-${index}` })))
        const final = await store.get(k)
        expect(await other.get(k), 'both instances read the same value').toEqual(final)
        expectOneAdd(results, final)
      } finally {
        await other.dispose?.()
      }
    },
  },
  {
    title: 'auth state store › a write on one instance is seen at once by another',
    needs: 'shared',
    async run({ store, create, key }) {
      const other = await create()
      try {
        const k = key('shared-read')
        await store.set(k, { v: 1 })
        expect(await other.get(k)).toEqual({ v: 1 })
        expect(await other.swap(k, { v: 2 })).toEqual({ v: 1 })
        expect(await store.get(k)).toEqual({ v: 2 })
        expect(await store.delete(k)).toBe(true)
        expect(await other.get(k)).toBeNull()
        expect(await other.add(k, { v: 3 })).toBe(true)
        expect(await store.add(k, { v: 4 })).toBe(false)
      } finally {
        await other.dispose?.()
      }
    },
  },
]
