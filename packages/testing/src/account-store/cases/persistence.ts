/**
 * Account store cases: persistence.
 *
 * @module account-store/cases/persistence
 */
import { expect } from 'vitest'
import { eventually } from '../../_expect.js'
import { expectConflict, type AccountStoreCase } from '../account-store-kit.js'

/** The account store cases of this topic: persistence. */
export const persistenceCases: readonly AccountStoreCase[] = [
  {
    title: 'account store › a new store over the same storage sees earlier users and keys',
    needsPersistent: true,
    async run({ create, user, key }) {
      const first = await create()
      const created = user()
      const createdKey = key(created.id)
      try {
        await first.createUser(created)
        await first.createKey(createdKey)
        await first.setKeyActive(createdKey.id, false)
      } finally {
        await first.dispose?.()
      }
      const second = await create()
      const storedKey = { ...createdKey, active: false }
      try {
        expect(await second.getUser(created.id)).toEqual(created)
        expect(await second.findUserByEmail(created.email)).toEqual(created)
        expect(await second.getKey(createdKey.id)).toEqual(storedKey)
        expect(await second.findKeyByHash(createdKey.hash)).toEqual(storedKey)
        await eventually(async () => expect(await second.listKeys(created.id, { limit: 10 })).toEqual([storedKey]))
        await expectConflict(second.createUser(user({ email: created.email })), 'email')
        await expectConflict(second.createKey(key(created.id, { hash: createdKey.hash })), 'hash')
      } finally {
        await second.dispose?.()
      }
    },
  },
]
