/**
 * The user listing and deletion of the unstorage account store (`./account-store.ts`), and the
 * page checks it shares with `listKeys`: kept apart so each file stays short.
 *
 * Users are listed in id order (code-unit order of `[A-Za-z0-9_-]`), a page after the id
 * `after`: a cursor that stays right while users are added or deleted. Deletion removes the
 * record FIRST (the commit point: from then on nothing finds the user), then the email entry
 * when it still points to this user, so the email may be taken again.
 *
 * @module unstorage/account-users
 */
import type { AccountStore, UserRecord } from '@litho/core/contracts'
import type { Storage } from 'unstorage'
import { ID_RE, type StoreKit } from '../kit/store-base.js'
import { describe } from '../kit/validate.js'

/** The largest page: the port's bound. */
export const MAX_LIMIT = 100
/** Backend calls issued at once by a list (see design-store.ts). */
export const BATCH_SIZE = 100

/** What the user methods need of the account store they belong to. */
export interface AccountUsersContext {
  kit: StoreKit
  storage: Storage
  userKey: (id: string) => string
  emailKey: (email: string) => string
  readUser: (id: string, operation: string) => Promise<UserRecord | null>
  readPointer: (key: string, operation: string) => Promise<string | null>
  withLock: <T>(key: string, task: () => Promise<T>) => Promise<T>
}

/** `listUsers` and `deleteUser` of the unstorage account store. */
export function accountUsers(context: AccountUsersContext): Required<Pick<AccountStore, 'listUsers' | 'deleteUser'>> {
  const kit: StoreKit = context.kit
  const { storage, userKey, emailKey, readUser, readPointer, withLock } = context
  return {
    async listUsers(options: { limit: number; after?: string }): Promise<{ users: UserRecord[]; next: string | null }> {
      const limit = assertLimit(kit, options)
      const { after } = options
      if (after !== undefined) kit.assertId('options.after', after)
      return kit.wrapBackendErrors('listUsers', async () => {
        const prefix = userKey('')
        const ids = (await storage.getKeys(prefix))
          .filter((key) => key.startsWith(prefix))
          .map((key) => key.slice(prefix.length))
          .filter((id) => ID_RE.test(id) && (after === undefined || id > after))
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        const users: UserRecord[] = []
        let index = 0
        // Read in batches until the page is full: a record deleted meanwhile is skipped.
        while (users.length < limit && index < ids.length) {
          const batch = ids.slice(index, index + Math.min(BATCH_SIZE, limit - users.length))
          index += batch.length
          for (const user of await Promise.all(batch.map((id) => readUser(id, 'listUsers')))) if (user !== null) users.push(user)
        }
        return { users, next: index < ids.length && users.length > 0 ? users[users.length - 1]!.id : null }
      })
    },

    async deleteUser(id: string): Promise<boolean> {
      kit.assertId('id', id)
      return withLock(`u:${id}`, () =>
        kit.wrapBackendErrors('deleteUser', async () => {
          const stored = await readUser(id, 'deleteUser')
          if (stored === null) return false
          await storage.removeItem(userKey(id))
          if ((await readPointer(emailKey(stored.email), 'deleteUser')) === id) await storage.removeItem(emailKey(stored.email))
          return true
        }),
      )
    },
  }
}

/** `options.offset` of a list: a whole number ≥ 0, default 0. */
export function assertOffset(kit: StoreKit, options: { offset?: unknown }): number {
  const { offset = 0 } = options
  if (typeof offset !== 'number') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected options.offset to be a number but received ${describe(offset)}`)
  if (!Number.isSafeInteger(offset) || offset < 0) throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected options.offset to be a whole number ≥ 0 but received ${describe(offset)}`)
  return offset
}

/** `options.limit` of a list: a whole number from 1 to {@link MAX_LIMIT}. */
export function assertLimit(kit: StoreKit, options: unknown): number {
  kit.assertObject('options', options)
  const { limit } = options
  if (typeof limit !== 'number') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected options.limit to be a number but received ${describe(limit)}`)
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected options.limit to be a whole number from 1 to ${MAX_LIMIT} but received ${describe(limit)}`)
  }
  return limit
}
