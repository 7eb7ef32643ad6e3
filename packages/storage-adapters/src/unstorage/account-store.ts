/**
 * An account store on unstorage: ONE implementation over any unstorage driver (memory, fs,
 * Redis, …), so every backend behaves the same and passes the account-store suite of
 * `@litho/testing`.
 *
 * Key layout (`base` defaults to `litho:accounts`; ids are `[A-Za-z0-9_-]`, so they never
 * contain the `:` separator; emails are hashed so any email gives a safe key):
 * - `<base>:u:<id>` → the user record, as JSON (listed by `listUsers`, see `./account-users.ts`).
 * - `<base>:email:<sha256(email), base64url>` → the user id, as a plain string.
 * - `<base>:k:<id>` → the key record, as JSON.
 * - `<base>:kh:<base64url part of the hash>` → the key id, as a plain string.
 * - `<base>:uk:<userId>:<keyId>` → `{"createdAt":"…"}`, one index entry per key. There is no
 *   shared list value, so concurrent creates never overwrite each other's index.
 * - `<base>:ku:<keyId>` → the latest `lastUsedAt`, as a plain string. `markKeyUsed` writes only
 *   this, never the record, so it can never write back a stale `active` over a deactivation
 *   made by another instance; reads return the later of it and the record's `lastUsedAt`.
 *
 * Write order: the record is the commit point. Create writes the lookup entries (email or
 * hash, then the user-key entry) first and the record LAST; deleteKey removes the record
 * FIRST. So a crash never leaves a record that cannot be found by its email or hash (which
 * would let a second record take the same email or hash), only lookup entries whose record is
 * missing or no longer matches ("dangling"): every read ignores those.
 *
 * Consistency: every read but `listKeys` reads one or two keys and its own writes. Conflicts
 * of id, email and hash are detected on one instance (in-process, even for concurrent calls),
 * not across instances sharing a backend (the port allows this). Writes to one id are
 * serialized per instance; across instances the last write wins (two `setKeyActive` racing on
 * two instances: one of them; the port asks no more).
 *
 * @module unstorage/account-store
 */
import { createHash } from 'node:crypto'
import type { AccountStore, KeyRecord, UserRecord } from '@litho/core/contracts'
import type { Storage } from 'unstorage'
import { createLock } from '../kit/locks.js'
import { ID_RE, readUnstorageOptions, storeKit, TIMESTAMP_RE, type StoreKit } from '../kit/store-base.js'
import { describe } from '../kit/validate.js'
import { accountUsers, assertLimit, assertOffset, BATCH_SIZE } from './account-users.js'

/** Options of {@link unstorageAccountStore}. */
export interface UnstorageAccountStoreOptions {
  /** The unstorage instance to keep accounts in (**required**). The store never disposes it. */
  storage: Storage
  /** Prefix of every key, `:`-separated segments of `[A-Za-z0-9_-]`. @default 'litho:accounts' */
  base?: string
}

/** The errors and checks of this store, shared with its memory, fs and Redis factories. */
export const kit: StoreKit = storeKit({ label: 'account-store', adapter: 'unstorage-account-store', defaultBase: 'litho:accounts' })
/** `sha256:` and the 43 base64url characters of a SHA-256 digest (as `@litho/auth-adapters` makes them). */
const HASH_RE = /^sha256:([A-Za-z0-9_-]{43})$/
/** A link secret's salt (`LINK_SALT` of `@litho/core`, which would load the renderer). */
const LINK_SALT_RE = /^[A-Za-z0-9_-]{22,86}$/
/** RFC 5321's limit on a path; longer is not an email. */
const MAX_EMAIL_LENGTH = 320
/** The longest key name and prefix accepted: they are labels, not documents. */
const MAX_LABEL_LENGTH = 200
const MAX_PASSWORD_HASH_LENGTH = 1024
/** Every method of the port: the Redis store forwards each to the store it loads. */
export const METHODS = ['createUser', 'getUser', 'findUserByEmail', 'updateUser', 'createKey', 'getKey', 'findKeyByHash', 'listKeys', 'setKeyActive', 'markKeyUsed', 'deleteKey', 'setKeyLinkSalt', 'listUsers', 'deleteUser'] as const

/**
 * The shape of a plan name (`PLAN_NAME` of `@litho/core/contracts`, kept here so this module does
 * not load zod): a store accepts any plan an operator's table may name; whether the plan is in
 * the server's table is the server's check, not the store's.
 */
const PLAN_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/

/**
 * Creates an account store over an unstorage instance. Options are checked now; the storage
 * is first touched by the first call.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a missing storage or a bad `base`.
 * @example
 * import { createStorage } from 'unstorage'
 * import redisDriver from 'unstorage/drivers/redis'
 *
 * const accounts = unstorageAccountStore({ storage: createStorage({ driver: redisDriver({ url: process.env.REDIS_URL }) }) })
 * const key = await accounts.findKeyByHash(hashRenderKey(secret))
 */
export function unstorageAccountStore(options: UnstorageAccountStoreOptions): AccountStore {
  const { storage, base } = readUnstorageOptions(kit, options)

  const userKey = (id: string) => `${base}:u:${id}`
  const emailKey = (email: string) => `${base}:email:${createHash('sha256').update(email, 'utf8').digest('base64url')}`
  const keyKey = (id: string) => `${base}:k:${id}`
  const hashKey = (hash: string) => `${base}:kh:${hash.slice('sha256:'.length)}`
  const userKeysPrefix = (userId: string) => `${base}:uk:${userId}:`
  const userKeyEntry = (userId: string, keyId: string) => `${userKeysPrefix(userId)}${keyId}`
  const usedKey = (id: string) => `${base}:ku:${id}`

  const readUser = async (id: string, operation: string): Promise<UserRecord | null> => {
    const text = kit.toText(await storage.getItemRaw(userKey(id)), operation)
    return text === null ? null : parseUser(text, id, operation)
  }
  /** The key with the later of its record's and its `ku` entry's `lastUsedAt`. */
  const readKey = async (id: string, operation: string): Promise<KeyRecord | null> => {
    const [raw, rawUsed] = await Promise.all([storage.getItemRaw(keyKey(id)), storage.getItemRaw(usedKey(id))])
    const text = kit.toText(raw, operation)
    if (text === null) return null
    const key = parseKey(text, id, operation)
    const used = kit.toText(rawUsed, operation)
    // An unreadable entry is ignored: lastUsedAt is best effort.
    if (used !== null && TIMESTAMP_RE.test(used) && (key.lastUsedAt === null || Date.parse(used) > Date.parse(key.lastUsedAt))) key.lastUsedAt = used
    return key
  }
  /** The id an index entry (email or hash) points to, or null. */
  const readPointer = async (key: string, operation: string): Promise<string | null> => {
    const id = kit.toText(await storage.getItemRaw(key), operation)
    if (id === null) return null
    if (!ID_RE.test(id)) throw kit.storageError(operation, 'Expected an id under an index key but found something else')
    return id
  }
  /** The user with this (normalised) email, or null; a dangling email entry finds nothing. */
  const userByEmail = async (email: string, operation: string): Promise<UserRecord | null> => {
    const id = await readPointer(emailKey(email), operation)
    if (id === null) return null
    const user = await readUser(id, operation)
    return user?.email === email ? user : null
  }
  const keyByHash = async (hash: string, operation: string): Promise<KeyRecord | null> => {
    const id = await readPointer(hashKey(hash), operation)
    if (id === null) return null
    const key = await readKey(id, operation)
    return key?.hash === hash ? key : null
  }

  // Per-instance serialization of the writes to one record, and the emails and hashes being
  // created, so that the conflict checks hold even for concurrent calls on this instance.
  const withLock = createLock()
  const pendingEmails = new Set<string>()
  const pendingHashes = new Set<string>()

  /** Reads a key, changes it with `change` (null: leave it) and writes it back, under its lock. */
  const changeKey = (id: string, operation: string, change: (key: KeyRecord) => KeyRecord | null): Promise<boolean> =>
    withLock(`k:${id}`, () =>
      kit.wrapBackendErrors(operation, async () => {
        const stored = await readKey(id, operation)
        if (stored === null) return false
        const changed = change(stored)
        if (changed !== null) await storage.setItemRaw(keyKey(id), JSON.stringify(changed))
        return true
      }),
    )

  return {
    name: 'unstorage',
    ...accountUsers({ kit, storage, userKey, emailKey, readUser, readPointer, withLock }),

    async createUser(user: UserRecord): Promise<void> {
      const text = serializeUser(user)
      const { id, email } = user
      if (pendingEmails.has(email)) throw kit.conflictError('createUser', 'email')
      pendingEmails.add(email)
      try {
        await withLock(`u:${id}`, () =>
          kit.wrapBackendErrors('createUser', async () => {
            // Best effort across instances (the port asks no more): checked, then written.
            if (await storage.hasItem(userKey(id))) throw kit.conflictError('createUser', 'id')
            if ((await userByEmail(email, 'createUser')) !== null) throw kit.conflictError('createUser', 'email')
            await storage.setItemRaw(emailKey(email), id)
            await storage.setItemRaw(userKey(id), text)
          }),
        )
      } finally {
        pendingEmails.delete(email)
      }
    },

    async getUser(id: string): Promise<UserRecord | null> {
      kit.assertId('id', id)
      return kit.wrapBackendErrors('getUser', () => readUser(id, 'getUser'))
    },

    async findUserByEmail(email: string): Promise<UserRecord | null> {
      if (typeof email !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected email to be a string but received ${describe(email)}`)
      const normalised = email.trim().toLowerCase()
      if (normalised === '' || normalised.length > MAX_EMAIL_LENGTH) {
        throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected email to be 1 to ${MAX_EMAIL_LENGTH} characters once trimmed but received ${describe(email)}`)
      }
      return kit.wrapBackendErrors('findUserByEmail', () => userByEmail(normalised, 'findUserByEmail'))
    },

    async updateUser(user: UserRecord): Promise<boolean> {
      const text = serializeUser(user)
      return withLock(`u:${user.id}`, () =>
        kit.wrapBackendErrors('updateUser', async () => {
          const stored = await readUser(user.id, 'updateUser')
          if (stored === null) return false
          for (const field of ['email', 'createdAt'] as const) {
            if (user[field] !== stored[field]) {
              throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be the stored one (it never changes) but received a different value`)
            }
          }
          await storage.setItemRaw(userKey(user.id), text)
          return true
        }),
      )
    },

    async createKey(key: KeyRecord): Promise<void> {
      const text = serializeKey(key)
      const { id, userId, hash, createdAt } = key
      if (pendingHashes.has(hash)) throw kit.conflictError('createKey', 'hash')
      pendingHashes.add(hash)
      try {
        await withLock(`k:${id}`, () =>
          kit.wrapBackendErrors('createKey', async () => {
            if (await storage.hasItem(keyKey(id))) throw kit.conflictError('createKey', 'id')
            if ((await keyByHash(hash, 'createKey')) !== null) throw kit.conflictError('createKey', 'hash')
            await storage.setItemRaw(hashKey(hash), id)
            await storage.setItemRaw(userKeyEntry(userId, id), JSON.stringify({ createdAt }))
            // A use entry left by an earlier key of this id must not show on the new one.
            await storage.removeItem(usedKey(id))
            await storage.setItemRaw(keyKey(id), text)
          }),
        )
      } finally {
        pendingHashes.delete(hash)
      }
    },

    async getKey(id: string): Promise<KeyRecord | null> {
      kit.assertId('id', id)
      return kit.wrapBackendErrors('getKey', () => readKey(id, 'getKey'))
    },

    async findKeyByHash(hash: string): Promise<KeyRecord | null> {
      assertHash(hash)
      return kit.wrapBackendErrors('findKeyByHash', () => keyByHash(hash, 'findKeyByHash'))
    },

    async listKeys(userId: string, options: { limit: number; offset?: number }): Promise<KeyRecord[]> {
      kit.assertId('userId', userId)
      const limit = assertLimit(kit, options)
      const offset = assertOffset(kit, options)
      return kit.wrapBackendErrors('listKeys', async () => {
        const prefix = userKeysPrefix(userId)
        const ids = (await storage.getKeys(prefix))
          .filter((key) => key.startsWith(prefix))
          .map((key) => key.slice(prefix.length))
          .filter((id) => ID_RE.test(id))
        // A user has few keys: read every record (createdAt never changes, so the record's is
        // the order), 100 backend calls at a time.
        const keys: KeyRecord[] = []
        for (let start = 0; start < ids.length; start += BATCH_SIZE) {
          const records = await Promise.all(ids.slice(start, start + BATCH_SIZE).map((id) => readKey(id, 'listKeys')))
          // Dangling entries (record missing, or of another user) are left out.
          for (const record of records) if (record !== null && record.userId === userId) keys.push(record)
        }
        const time = (key: KeyRecord) => Date.parse(key.createdAt)
        keys.sort((a, b) => (time(a) === time(b) ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : time(b) - time(a)))
        return keys.slice(offset, offset + limit)
      })
    },

    async setKeyActive(id: string, active: boolean): Promise<boolean> {
      kit.assertId('id', id)
      if (typeof active !== 'boolean') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected active to be a boolean but received ${describe(active)}`)
      return changeKey(id, 'setKeyActive', (stored) => (stored.active === active ? null : { ...stored, active }))
    },

    async setKeyLinkSalt(id: string, linkSalt: string): Promise<boolean> {
      kit.assertId('id', id)
      assertLinkSalt(linkSalt)
      return changeKey(id, 'setKeyLinkSalt', (stored) => ({ ...stored, linkSalt }))
    },

    async markKeyUsed(id: string, at: string): Promise<void> {
      kit.assertId('id', id)
      kit.assertTimestamp('at', at)
      await withLock(`k:${id}`, () =>
        kit.wrapBackendErrors('markKeyUsed', async () => {
          const stored = await readKey(id, 'markKeyUsed')
          // Unknown keys are ignored; lastUsedAt never moves back (a delayed call changes nothing).
          if (stored === null || (stored.lastUsedAt !== null && Date.parse(stored.lastUsedAt) >= Date.parse(at))) return
          await storage.setItemRaw(usedKey(id), at)
        }),
      )
    },

    async deleteKey(id: string): Promise<boolean> {
      kit.assertId('id', id)
      return withLock(`k:${id}`, () =>
        kit.wrapBackendErrors('deleteKey', async () => {
          const stored = await readKey(id, 'deleteKey')
          if (stored === null) return false
          // Record first: from here on nothing finds the key; what is left can only dangle.
          await storage.removeItem(keyKey(id))
          if ((await readPointer(hashKey(stored.hash), 'deleteKey')) === id) await storage.removeItem(hashKey(stored.hash))
          await storage.removeItem(usedKey(id))
          await storage.removeItem(userKeyEntry(stored.userId, id))
          return true
        }),
      )
    },
  }
}
/** Parses stored JSON; the message names the id only, never the content (a password hash). */
function parseJson(text: string, kind: string, id: string, operation: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw kit.storageError(operation, `Expected the ${kind} record of ${id} to be JSON but found something else`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || (value as { id?: unknown }).id !== id) {
    throw kit.storageError(operation, `Expected the ${kind} record of ${id} to be a ${kind} record but found something else`)
  }
  return value as Record<string, unknown>
}

function parseUser(text: string, id: string, operation: string): UserRecord {
  const value = parseJson(text, 'user', id, operation)
  if (typeof value.email !== 'string' || typeof value.passwordHash !== 'string' || typeof value.createdAt !== 'string') {
    throw kit.storageError(operation, `Expected the user record of ${id} to be a user record but found something else`)
  }
  return value as unknown as UserRecord
}

function parseKey(text: string, id: string, operation: string): KeyRecord {
  const value = parseJson(text, 'key', id, operation)
  if (typeof value.userId !== 'string' || typeof value.hash !== 'string' || typeof value.active !== 'boolean' || typeof value.createdAt !== 'string') {
    throw kit.storageError(operation, `Expected the key record of ${id} to be a key record but found something else`)
  }
  return value as unknown as KeyRecord
}

/** Validates a user and returns its JSON (only the fields of the port, in a fixed order). */
function serializeUser(user: unknown): string {
  kit.assertObject('user', user)
  const { id, email, passwordHash, plan, createdAt, updatedAt } = user
  kit.assertId('id', id)
  if (typeof email !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected email to be a string but received ${describe(email)}`)
  if (email === '' || email.length > MAX_EMAIL_LENGTH || email !== email.trim().toLowerCase()) {
    throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected email to be 1 to ${MAX_EMAIL_LENGTH} characters, trimmed and lower-cased, but received another string`)
  }
  if (typeof passwordHash !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected passwordHash to be a string but received ${describe(passwordHash)}`)
  // The value is never described: it is a password hash.
  if (passwordHash === '' || passwordHash.length > MAX_PASSWORD_HASH_LENGTH) {
    throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected passwordHash to be 1 to ${MAX_PASSWORD_HASH_LENGTH} characters but received another string`)
  }
  if (typeof plan !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected plan to be a string but received ${describe(plan)}`)
  if (!PLAN_NAME.test(plan)) throw kit.typeError('ERR_INVALID_ARG_VALUE', 'Expected plan to be a plan name (1 to 32 of a-z, 0-9, "_", "-", starting with a letter or digit) but received another string')
  kit.assertTimestamp('createdAt', createdAt)
  kit.assertTimestamp('updatedAt', updatedAt)
  return JSON.stringify({ id, email, passwordHash, plan, createdAt, updatedAt })
}

/** Validates a key record and returns its JSON (only the fields of the port, in a fixed order). */
function serializeKey(key: unknown): string {
  kit.assertObject('key', key)
  const { id, userId, name, hash, prefix, active, createdAt, lastUsedAt, linkSalt } = key
  kit.assertId('id', id)
  kit.assertId('userId', userId)
  assertLabel('name', name)
  assertHash(hash)
  assertLabel('prefix', prefix)
  if (typeof active !== 'boolean') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected active to be a boolean but received ${describe(active)}`)
  kit.assertTimestamp('createdAt', createdAt)
  if (lastUsedAt !== null) kit.assertTimestamp('lastUsedAt', lastUsedAt)
  if (linkSalt !== undefined) assertLinkSalt(linkSalt)
  return JSON.stringify({ id, userId, name, hash, prefix, active, createdAt, lastUsedAt, ...(linkSalt === undefined ? {} : { linkSalt }) })
}

/** The salt of a link secret (docs/signed-render-links.md); never described. */
function assertLinkSalt(value: unknown): asserts value is string {
  if (typeof value !== 'string' || !LINK_SALT_RE.test(value)) throw kit.typeError(typeof value === 'string' ? 'ERR_INVALID_ARG_VALUE' : 'ERR_INVALID_ARG_TYPE', `Expected linkSalt to be 22 to 86 characters of base64url but received ${typeof value === 'string' ? 'another string' : describe(value)}`)
}

function assertLabel(field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be a string but received ${describe(value)}`)
  if (value.length > MAX_LABEL_LENGTH) throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be at most ${MAX_LABEL_LENGTH} characters but received ${value.length}`)
}

/** The hash is never described: it identifies a secret. */
function assertHash(value: unknown): asserts value is string {
  if (typeof value !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected hash to be a string but received ${describe(value)}`)
  if (!HASH_RE.test(value)) throw kit.typeError('ERR_INVALID_ARG_VALUE', 'Expected hash to be sha256: and 43 characters of base64url but received another string')
}
