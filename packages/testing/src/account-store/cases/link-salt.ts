/**
 * Account store cases: the optional `linkSalt` of a key and `setKeyLinkSalt`, which rotates a
 * key's link secret (docs/signed-render-links.md). A store without `setKeyLinkSalt` skips the
 * second case by name, with a reason.
 *
 * @module account-store/cases/link-salt
 */
import { expect } from 'vitest'
import { eventually } from '../../_expect.js'
import type { AccountStoreCase } from '../account-store-kit.js'

/** Two salts of the real shape: 16 random bytes in base64url. */
const SALT_A = 'q3Jx9Qm2LpZ7aB4cD5eF6g'
const SALT_B = 'Zz0_-Yy1Xx2Ww3Vv4Uu5Tt'

/** The account store cases of this topic: link salts. */
export const linkSaltCases: readonly AccountStoreCase[] = [
  {
    title: 'account store › a key with a linkSalt round-trips it through getKey, findKeyByHash and listKeys; one without has none',
    async run({ store, key, user }) {
      const owner = user().id
      const salted = key(owner, { linkSalt: SALT_A, createdAt: '2026-03-01T00:00:01.000Z' })
      const plain = key(owner, { createdAt: '2026-03-01T00:00:00.000Z' })
      await store.createKey(salted)
      await store.createKey(plain)
      expect(await store.getKey(salted.id)).toEqual(salted)
      expect(await store.findKeyByHash(salted.hash)).toEqual(salted)
      expect(await store.getKey(plain.id)).not.toHaveProperty('linkSalt')
      await eventually(async () => expect(await store.listKeys(owner, { limit: 10 })).toEqual([salted, plain]))
    },
  },
  {
    title: 'account store › setKeyLinkSalt replaces the salt and nothing else, and is false for an unknown key',
    async run({ store, key, user }) {
      expect(typeof store.setKeyLinkSalt, 'setKeyLinkSalt is implemented (or skip this case by name, with a reason)').toBe('function')
      const created = key(user().id, { linkSalt: SALT_A })
      const unsalted = key(user().id)
      await store.createKey(created)
      await store.createKey(unsalted)
      expect(await store.setKeyLinkSalt!(created.id, SALT_B)).toBe(true)
      expect(await store.getKey(created.id)).toEqual({ ...created, linkSalt: SALT_B })
      expect(await store.findKeyByHash(created.hash)).toEqual({ ...created, linkSalt: SALT_B })
      // A key made before signed links gets its first salt the same way.
      expect(await store.setKeyLinkSalt!(unsalted.id, SALT_A)).toBe(true)
      expect(await store.getKey(unsalted.id)).toEqual({ ...unsalted, linkSalt: SALT_A })
      expect(await store.setKeyLinkSalt!(key(user().id).id, SALT_B)).toBe(false)
      await expect(store.setKeyLinkSalt!(created.id, 'short'), 'a malformed salt').rejects.toMatchObject({ code: 'ERR_INVALID_ARG_VALUE' })
      expect((await store.getKey(created.id))?.linkSalt).toBe(SALT_B)
    },
  },
]
