/**
 * Auth state store cases: persistence.
 *
 * @module auth-state-store/cases/persistence
 */
import { expect } from 'vitest'
import type { AuthStateStoreCase } from '../auth-state-store-kit.js'

/** The auth state store cases of this topic: persistence. */
export const persistenceCases: readonly AuthStateStoreCase[] = [
  {
    title: 'auth state store › values survive a new instance on the same storage',
    needs: 'persistent',
    async run({ create, key }) {
      const plain = key('persistent-plain')
      const withTtl = key('persistent-ttl')
      const added = key('persistent-added')
      const first = await create()
      try {
        await first.set(plain, { signingKey: 'k1' })
        await first.set(withTtl, { code: 'abc' }, { ttlSeconds: 3600 })
        expect(await first.add(added, [1, 2])).toBe(true)
      } finally {
        await first.dispose?.()
      }
      const second = await create()
      try {
        expect(await second.get(plain)).toEqual({ signingKey: 'k1' })
        expect(await second.get(withTtl)).toEqual({ code: 'abc' })
        expect(await second.add(added, 'again')).toBe(false)
        expect(await second.swap(withTtl, { used: true })).toEqual({ code: 'abc' })
        expect(await second.delete(plain)).toBe(true)
      } finally {
        await second.dispose?.()
      }
    },
  },
]
