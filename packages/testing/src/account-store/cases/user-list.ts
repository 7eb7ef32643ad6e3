/**
 * Account store cases: listing and deleting users (the optional `listUsers` and `deleteUser`;
 * a store without them skips these cases by title).
 *
 * @module account-store/cases/user-list
 */
import type { AccountStore, UserRecord } from '@litho/core/contracts'
import { expect } from 'vitest'
import { expectInvalid } from '../../_expect.js'
import type { AccountStoreCase } from '../account-store-kit.js'

/** Every user of the store, page by page of `limit`, and the pages' lengths. */
async function listAll(store: AccountStore, limit: number): Promise<{ users: UserRecord[]; pages: number[] }> {
  const users: UserRecord[] = []
  const pages: number[] = []
  let after: string | undefined
  for (let guard = 0; guard < 10_000; guard++) {
    const page = await store.listUsers!({ limit, ...(after === undefined ? {} : { after }) })
    expect(page.users.length).toBeLessThanOrEqual(limit)
    users.push(...page.users)
    pages.push(page.users.length)
    if (page.next === null) return { users, pages }
    after = page.next
  }
  throw new Error('listUsers never returned next: null')
}

const needs = (store: AccountStore, method: 'listUsers' | 'deleteUser') =>
  expect(store[method], `${method} is optional: skip this case by its title if the store has none`).toBeTypeOf('function')

/** The account store cases of this topic: listing and deleting users. */
export const userListCases: readonly AccountStoreCase[] = [
  {
    title: 'account store › listUsers pages through every user once, in id order',
    async run({ store, user }) {
      needs(store, 'listUsers')
      const created = [user(), user(), user(), user(), user()]
      for (const record of created) await store.createUser(record)
      const { users } = await listAll(store, 2)
      const ids = users.map((u) => u.id)
      expect(new Set(ids).size, 'no user listed twice').toBe(ids.length)
      expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
      const mine = users.filter((u) => created.some((c) => c.id === u.id))
      expect(mine).toEqual([...created].sort((a, b) => (a.id < b.id ? -1 : 1)))
      // after: only ids after it; past the last one, an empty last page.
      const last = ids[ids.length - 1]!
      expect(await store.listUsers!({ limit: 10, after: last })).toEqual({ users: [], next: null })
    },
  },
  {
    title: 'account store › listUsers rejects a limit outside 1-100 or a bad after with a TypeError',
    async run({ store }) {
      needs(store, 'listUsers')
      await expectInvalid([
        ['limit 0', () => store.listUsers!({ limit: 0 }), 'ERR_INVALID_ARG_VALUE'],
        ['limit 101', () => store.listUsers!({ limit: 101 }), 'ERR_INVALID_ARG_VALUE'],
        ['limit "1"', () => store.listUsers!({ limit: '1' as never }), 'ERR_INVALID_ARG_TYPE'],
        ['after "a:b"', () => store.listUsers!({ limit: 1, after: 'a:b' }), 'ERR_INVALID_ARG_VALUE'],
      ])
    },
  },
  {
    title: 'account store › deleteUser: gone from getUser, findUserByEmail and listUsers; the email can be used again',
    async run({ store, user, key }) {
      needs(store, 'deleteUser')
      const gone = user()
      const kept = user()
      await store.createUser(gone)
      await store.createUser(kept)
      const kept1 = key(kept.id)
      await store.createKey(kept1)
      expect(await store.deleteUser!(gone.id)).toBe(true)
      expect(await store.getUser(gone.id)).toBeNull()
      expect(await store.findUserByEmail(gone.email)).toBeNull()
      if (store.listUsers) expect((await listAll(store, 100)).users.map((u) => u.id)).not.toContain(gone.id)
      expect(await store.deleteUser!(gone.id)).toBe(false)
      // Nothing else changed.
      expect(await store.getUser(kept.id)).toEqual(kept)
      expect(await store.getKey(kept1.id)).toEqual(kept1)
      const again = user({ email: gone.email })
      await store.createUser(again)
      expect(await store.findUserByEmail(gone.email)).toEqual(again)
    },
  },
]
