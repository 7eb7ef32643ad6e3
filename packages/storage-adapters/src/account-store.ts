/**
 * An account store on unstorage: ONE implementation over any unstorage driver (memory, fs,
 * Redis, …), so every backend behaves the same and passes the account-store suite of
 * `@litho/testing`.
 *
 * Key layout (`base` defaults to `litho:accounts`; ids are `[A-Za-z0-9_-]`, so they never
 * contain the `:` separator; emails are hashed so any email gives a safe key):
 * - `<base>:u:<id>` → the user record, as JSON.
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
 * @module account-store
 */
import { createHash } from 'node:crypto'
import { resolve } from 'node:path'
import type { AccountStore, KeyRecord, UserRecord } from '@litho/core/contracts'
import { LithoError } from '@litho/core/errors'
import { createStorage, type Storage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import { atomicFsDriver } from './_atomic-fs-driver.js'
import { describe } from './_validate.js'

/** Options of {@link unstorageAccountStore}. */
export interface UnstorageAccountStoreOptions {
  /** The unstorage instance to keep accounts in (**required**). The store never disposes it. */
  storage: Storage
  /** Prefix of every key, `:`-separated segments of `[A-Za-z0-9_-]`. @default 'litho:accounts' */
  base?: string
}

/** Options of {@link fsAccountStore}. */
export interface FsAccountStoreOptions {
  /** The directory holding the accounts (**required**); created on first write. */
  base: string
}

/** Options of {@link redisAccountStore}. */
export interface RedisAccountStoreOptions {
  /** Where Redis is. @default 'redis://127.0.0.1:6379' */
  url?: string
  /** Prefix of every key. @default 'litho:accounts' */
  base?: string
}

const ADAPTER = 'unstorage-account-store'
const DEFAULT_BASE = 'litho:accounts'
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379'
const BASE_RE = /^[A-Za-z0-9_-]+(?::[A-Za-z0-9_-]+)*$/
const ID_RE = /^[A-Za-z0-9_-]{1,64}$/
/** `sha256:` and the 43 base64url characters of a SHA-256 digest (as `@litho/auth-adapters` makes them). */
const HASH_RE = /^sha256:([A-Za-z0-9_-]{43})$/
/** ISO 8601 date and time with an offset; the list order compares these as instants. */
const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/
/** RFC 5321's limit on a path; longer is not an email. */
const MAX_EMAIL_LENGTH = 320
/** The longest key name and prefix accepted: they are labels, not documents. */
const MAX_LABEL_LENGTH = 200
const MAX_PASSWORD_HASH_LENGTH = 1024
/** The largest page: the port's bound. */
const MAX_LIMIT = 100
/** Backend calls issued at once by a list (see design-store.ts). */
const BATCH_SIZE = 100

/** The plans of `@litho/core` (`PlanId`), kept here so this module does not load the renderer. */
const PLAN_IDS = ['free', 'basic', 'pro', 'unlimited'] as const satisfies ReadonlyArray<UserRecord['plan']>
// Fails to compile when `PlanId` gains a plan that PLAN_IDS lacks.
const planIdsAreComplete: Exclude<UserRecord['plan'], (typeof PLAN_IDS)[number]> extends never ? true : false = true
void planIdsAreComplete

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
  const { storage, base = DEFAULT_BASE } = (options ?? {}) as Partial<UnstorageAccountStoreOptions>
  if (typeof storage !== 'object' || storage === null || typeof storage.getItemRaw !== 'function' || typeof storage.getKeys !== 'function') {
    throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected option storage to be an unstorage instance but received ${describe(storage)}`)
  }
  assertBase(base)

  const userKey = (id: string) => `${base}:u:${id}`
  const emailKey = (email: string) => `${base}:email:${createHash('sha256').update(email, 'utf8').digest('base64url')}`
  const keyKey = (id: string) => `${base}:k:${id}`
  const hashKey = (hash: string) => `${base}:kh:${hash.slice('sha256:'.length)}`
  const userKeysPrefix = (userId: string) => `${base}:uk:${userId}:`
  const userKeyEntry = (userId: string, keyId: string) => `${userKeysPrefix(userId)}${keyId}`
  const usedKey = (id: string) => `${base}:ku:${id}`

  const readUser = async (id: string, operation: string): Promise<UserRecord | null> => {
    const text = toText(await storage.getItemRaw(userKey(id)), operation)
    return text === null ? null : parseUser(text, id, operation)
  }
  /** The key with the later of its record's and its `ku` entry's `lastUsedAt`. */
  const readKey = async (id: string, operation: string): Promise<KeyRecord | null> => {
    const [raw, rawUsed] = await Promise.all([storage.getItemRaw(keyKey(id)), storage.getItemRaw(usedKey(id))])
    const text = toText(raw, operation)
    if (text === null) return null
    const key = parseKey(text, id, operation)
    const used = toText(rawUsed, operation)
    // An unreadable entry is ignored: lastUsedAt is best effort.
    if (used !== null && TIMESTAMP_RE.test(used) && (key.lastUsedAt === null || Date.parse(used) > Date.parse(key.lastUsedAt))) key.lastUsedAt = used
    return key
  }
  /** The id an index entry (email or hash) points to, or null. */
  const readPointer = async (key: string, operation: string): Promise<string | null> => {
    const id = toText(await storage.getItemRaw(key), operation)
    if (id === null) return null
    if (!ID_RE.test(id)) throw createStorageError(operation, 'Expected an id under an index key but found something else')
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
  const locks = new Map<string, Promise<void>>()
  const pendingEmails = new Set<string>()
  const pendingHashes = new Set<string>()
  const withLock = <T>(lock: string, task: () => Promise<T>): Promise<T> => {
    const previous = locks.get(lock) ?? Promise.resolve()
    const result = previous.then(task)
    const tail = result.then(
      () => undefined,
      () => undefined,
    )
    locks.set(lock, tail)
    void tail.then(() => {
      if (locks.get(lock) === tail) locks.delete(lock)
    })
    return result
  }

  /** Reads a key, changes it with `change` (null: leave it) and writes it back, under its lock. */
  const changeKey = (id: string, operation: string, change: (key: KeyRecord) => KeyRecord | null): Promise<boolean> =>
    withLock(`k:${id}`, () =>
      wrapBackendErrors(operation, async () => {
        const stored = await readKey(id, operation)
        if (stored === null) return false
        const changed = change(stored)
        if (changed !== null) await storage.setItemRaw(keyKey(id), JSON.stringify(changed))
        return true
      }),
    )

  return {
    name: 'unstorage',

    async createUser(user: UserRecord): Promise<void> {
      const text = serializeUser(user)
      const { id, email } = user
      if (pendingEmails.has(email)) throw createConflictError('createUser', 'email')
      pendingEmails.add(email)
      try {
        await withLock(`u:${id}`, () =>
          wrapBackendErrors('createUser', async () => {
            // Best effort across instances (the port asks no more): checked, then written.
            if (await storage.hasItem(userKey(id))) throw createConflictError('createUser', 'id')
            if ((await userByEmail(email, 'createUser')) !== null) throw createConflictError('createUser', 'email')
            await storage.setItemRaw(emailKey(email), id)
            await storage.setItemRaw(userKey(id), text)
          }),
        )
      } finally {
        pendingEmails.delete(email)
      }
    },

    async getUser(id: string): Promise<UserRecord | null> {
      assertId('id', id)
      return wrapBackendErrors('getUser', () => readUser(id, 'getUser'))
    },

    async findUserByEmail(email: string): Promise<UserRecord | null> {
      if (typeof email !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected email to be a string but received ${describe(email)}`)
      const normalised = email.trim().toLowerCase()
      if (normalised === '' || normalised.length > MAX_EMAIL_LENGTH) {
        throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected email to be 1 to ${MAX_EMAIL_LENGTH} characters once trimmed but received ${describe(email)}`)
      }
      return wrapBackendErrors('findUserByEmail', () => userByEmail(normalised, 'findUserByEmail'))
    },

    async updateUser(user: UserRecord): Promise<boolean> {
      const text = serializeUser(user)
      return withLock(`u:${user.id}`, () =>
        wrapBackendErrors('updateUser', async () => {
          const stored = await readUser(user.id, 'updateUser')
          if (stored === null) return false
          for (const field of ['email', 'createdAt'] as const) {
            if (user[field] !== stored[field]) {
              throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be the stored one (it never changes) but received a different value`)
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
      if (pendingHashes.has(hash)) throw createConflictError('createKey', 'hash')
      pendingHashes.add(hash)
      try {
        await withLock(`k:${id}`, () =>
          wrapBackendErrors('createKey', async () => {
            if (await storage.hasItem(keyKey(id))) throw createConflictError('createKey', 'id')
            if ((await keyByHash(hash, 'createKey')) !== null) throw createConflictError('createKey', 'hash')
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
      assertId('id', id)
      return wrapBackendErrors('getKey', () => readKey(id, 'getKey'))
    },

    async findKeyByHash(hash: string): Promise<KeyRecord | null> {
      assertHash(hash)
      return wrapBackendErrors('findKeyByHash', () => keyByHash(hash, 'findKeyByHash'))
    },

    async listKeys(userId: string, options: { limit: number }): Promise<KeyRecord[]> {
      assertId('userId', userId)
      const limit = assertLimit(options)
      return wrapBackendErrors('listKeys', async () => {
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
        return keys.slice(0, limit)
      })
    },

    async setKeyActive(id: string, active: boolean): Promise<boolean> {
      assertId('id', id)
      if (typeof active !== 'boolean') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected active to be a boolean but received ${describe(active)}`)
      return changeKey(id, 'setKeyActive', (stored) => (stored.active === active ? null : { ...stored, active }))
    },

    async markKeyUsed(id: string, at: string): Promise<void> {
      assertId('id', id)
      assertTimestamp('at', at)
      await withLock(`k:${id}`, () =>
        wrapBackendErrors('markKeyUsed', async () => {
          const stored = await readKey(id, 'markKeyUsed')
          // Unknown keys are ignored; lastUsedAt never moves back (a delayed call changes nothing).
          if (stored === null || (stored.lastUsedAt !== null && Date.parse(stored.lastUsedAt) >= Date.parse(at))) return
          await storage.setItemRaw(usedKey(id), at)
        }),
      )
    },

    async deleteKey(id: string): Promise<boolean> {
      assertId('id', id)
      return withLock(`k:${id}`, () =>
        wrapBackendErrors('deleteKey', async () => {
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

/**
 * An account store in process memory (the unstorage memory driver): for tests and development.
 * Every call gives a new, empty store; nothing survives the process.
 *
 * @example
 * const accounts = memoryAccountStore()
 * await accounts.createUser({ id: 'u_3Jx9Qm2L', email: 'ann@example.com', passwordHash, plan: 'free', createdAt: now, updatedAt: now })
 */
export function memoryAccountStore(): AccountStore {
  return withStorage('memory', createStorage({ driver: memoryDriver() }))
}

/**
 * An account store in files under `options.base`: accounts survive restarts. Every file is
 * written to a temporary file and renamed into place (the atomic fs driver), so a crash
 * mid-write leaves the previous version, never a truncated one. Keep one directory for
 * accounts only.
 *
 * @throws {TypeError} `ERR_MISSING_OPTION` or `ERR_INVALID_ARG_TYPE` when `base` is missing or not a string.
 * @example
 * const accounts = fsAccountStore({ base: '.data/accounts' })
 */
export function fsAccountStore(options: FsAccountStoreOptions): AccountStore {
  const base = (options as Partial<FsAccountStoreOptions> | undefined)?.base
  if (base === undefined || base === '') throw createTypeError('ERR_MISSING_OPTION', 'Expected option base (a directory) but received none')
  if (typeof base !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected option base to be a string but received ${describe(base)}`)
  return withStorage('fs', createStorage({ driver: atomicFsDriver({ base: resolve(base) }) }))
}

/**
 * An account store on Redis (the unstorage redis driver, over ioredis): shared by any number of
 * processes. ioredis is loaded, and the connection made, at the first call; `dispose()` closes it.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a bad `url` or `base`.
 * @example
 * const accounts = redisAccountStore({ url: process.env.REDIS_URL })
 */
export function redisAccountStore(options: RedisAccountStoreOptions = {}): AccountStore {
  const { url = DEFAULT_REDIS_URL, base = DEFAULT_BASE } = options
  if (typeof url !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected option url to be a string but received ${describe(url)}`)
  assertBase(base)
  let loading: Promise<AccountStore> | undefined
  let disposed = false
  const load = (operation: string): Promise<AccountStore> => {
    if (disposed) return Promise.reject(createStorageError(operation, 'The store was disposed'))
    return (loading ??= import('unstorage/drivers/redis').then(({ default: redisDriver }) => {
      // On the path of every render request: fail within about a second while Redis is down.
      const driver = redisDriver({ url, lazyConnect: true, maxRetriesPerRequest: 3, connectTimeout: 5_000 })
      const client = driver.getInstance?.()
      client?.on('error', () => {})
      return withStorage('redis', createStorage({ driver }), base)
    }))
  }
  type Method = Exclude<keyof AccountStore, 'name' | 'dispose'>
  const forward =
    <K extends Method>(method: K) =>
    async (...args: Parameters<AccountStore[K]>): Promise<Awaited<ReturnType<AccountStore[K]>>> => {
      const store = await wrapBackendErrors(method, () => load(method))
      return (await (store[method] as (...a: unknown[]) => Promise<unknown>)(...args)) as Awaited<ReturnType<AccountStore[K]>>
    }
  return {
    name: 'redis',
    createUser: forward('createUser'),
    getUser: forward('getUser'),
    findUserByEmail: forward('findUserByEmail'),
    updateUser: forward('updateUser'),
    createKey: forward('createKey'),
    getKey: forward('getKey'),
    findKeyByHash: forward('findKeyByHash'),
    listKeys: forward('listKeys'),
    setKeyActive: forward('setKeyActive'),
    markKeyUsed: forward('markKeyUsed'),
    deleteKey: forward('deleteKey'),
    async dispose(): Promise<void> {
      disposed = true
      const store = await loading?.catch(() => undefined)
      await store?.dispose?.()
    },
  }
}

// --- internal helpers ---

function withStorage(name: string, storage: Storage, base?: string): AccountStore {
  return { ...unstorageAccountStore({ storage, base }), name, dispose: () => storage.dispose() }
}

type TypeErrorCode = 'ERR_INVALID_ARG_TYPE' | 'ERR_INVALID_ARG_VALUE' | 'ERR_MISSING_OPTION'

/** A `TypeError` with a Node-style code; the message never echoes caller input. */
function createTypeError(code: TypeErrorCode, message: string): TypeError & { code: TypeErrorCode } {
  const error = Object.assign(new TypeError(`[account-store] ${message}`), { code })
  if (Error.captureStackTrace) Error.captureStackTrace(error, createTypeError)
  return error
}

function createStorageError(operation: string, message: string, cause?: unknown): LithoError {
  return new LithoError('ERR_STORAGE', `[account-store] ${operation}: ${message}`, { cause, details: { adapter: ADAPTER, operation } })
}

/** The field is named, the value is not: emails are personal data, hashes look up secrets. */
function createConflictError(operation: 'createUser' | 'createKey', field: 'id' | 'email' | 'hash'): LithoError {
  return new LithoError('ERR_STORE_CONFLICT', `[account-store] ${operation}: Expected an unused ${field} but received one already stored`, {
    details: { adapter: ADAPTER, operation, field },
  })
}

/**
 * Runs `task`; a backend failure becomes `ERR_STORAGE` (the original is `cause`). Our own
 * errors (coded TypeErrors, LithoErrors) pass through. Only the backend's message is kept,
 * never a value: the store's own messages never contain record content.
 */
async function wrapBackendErrors<T>(operation: string, task: () => Promise<T>): Promise<T> {
  try {
    return await task()
  } catch (error) {
    if (LithoError.isInstance(error) || (error instanceof TypeError && typeof (error as { code?: unknown }).code === 'string')) throw error
    throw createStorageError(operation, error instanceof Error ? error.message : 'the backend failed', error)
  }
}

/** Drivers return raw values as strings (memory, Redis) or bytes (fs). */
function toText(value: unknown, operation: string): string | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (value instanceof Uint8Array) return new TextDecoder().decode(value)
  throw createStorageError(operation, `Expected a string or bytes from the driver but received ${describe(value)}`)
}

/** Parses stored JSON; the message names the id only, never the content (a password hash). */
function parseJson(text: string, kind: string, id: string, operation: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw createStorageError(operation, `Expected the ${kind} record of ${id} to be JSON but found something else`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || (value as { id?: unknown }).id !== id) {
    throw createStorageError(operation, `Expected the ${kind} record of ${id} to be a ${kind} record but found something else`)
  }
  return value as Record<string, unknown>
}

function parseUser(text: string, id: string, operation: string): UserRecord {
  const value = parseJson(text, 'user', id, operation)
  if (typeof value.email !== 'string' || typeof value.passwordHash !== 'string' || typeof value.createdAt !== 'string') {
    throw createStorageError(operation, `Expected the user record of ${id} to be a user record but found something else`)
  }
  return value as unknown as UserRecord
}

function parseKey(text: string, id: string, operation: string): KeyRecord {
  const value = parseJson(text, 'key', id, operation)
  if (typeof value.userId !== 'string' || typeof value.hash !== 'string' || typeof value.active !== 'boolean' || typeof value.createdAt !== 'string') {
    throw createStorageError(operation, `Expected the key record of ${id} to be a key record but found something else`)
  }
  return value as unknown as KeyRecord
}

function assertObject(field: string, value: unknown): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be an object but received ${describe(value)}`)
  }
}

/** Validates a user and returns its JSON (only the fields of the port, in a fixed order). */
function serializeUser(user: unknown): string {
  assertObject('user', user)
  const { id, email, passwordHash, plan, createdAt, updatedAt } = user
  assertId('id', id)
  if (typeof email !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected email to be a string but received ${describe(email)}`)
  if (email === '' || email.length > MAX_EMAIL_LENGTH || email !== email.trim().toLowerCase()) {
    throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected email to be 1 to ${MAX_EMAIL_LENGTH} characters, trimmed and lower-cased, but received another string`)
  }
  if (typeof passwordHash !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected passwordHash to be a string but received ${describe(passwordHash)}`)
  // The value is never described: it is a password hash.
  if (passwordHash === '' || passwordHash.length > MAX_PASSWORD_HASH_LENGTH) {
    throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected passwordHash to be 1 to ${MAX_PASSWORD_HASH_LENGTH} characters but received another string`)
  }
  if (typeof plan !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected plan to be a string but received ${describe(plan)}`)
  if (!(PLAN_IDS as readonly string[]).includes(plan)) throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected plan to be one of ${PLAN_IDS.join(', ')} but received another string`)
  assertTimestamp('createdAt', createdAt)
  assertTimestamp('updatedAt', updatedAt)
  return JSON.stringify({ id, email, passwordHash, plan, createdAt, updatedAt })
}

/** Validates a key record and returns its JSON (only the fields of the port, in a fixed order). */
function serializeKey(key: unknown): string {
  assertObject('key', key)
  const { id, userId, name, hash, prefix, active, createdAt, lastUsedAt } = key
  assertId('id', id)
  assertId('userId', userId)
  assertLabel('name', name)
  assertHash(hash)
  assertLabel('prefix', prefix)
  if (typeof active !== 'boolean') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected active to be a boolean but received ${describe(active)}`)
  assertTimestamp('createdAt', createdAt)
  if (lastUsedAt !== null) assertTimestamp('lastUsedAt', lastUsedAt)
  return JSON.stringify({ id, userId, name, hash, prefix, active, createdAt, lastUsedAt })
}

function assertId(field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be a string but received ${describe(value)}`)
  if (!ID_RE.test(value)) throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be 1 to 64 characters of [A-Za-z0-9_-] but received ${describe(value)}`)
}

function assertLabel(field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be a string but received ${describe(value)}`)
  if (value.length > MAX_LABEL_LENGTH) throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be at most ${MAX_LABEL_LENGTH} characters but received ${value.length}`)
}

/** The hash is never described: it identifies a secret. */
function assertHash(value: unknown): asserts value is string {
  if (typeof value !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected hash to be a string but received ${describe(value)}`)
  if (!HASH_RE.test(value)) throw createTypeError('ERR_INVALID_ARG_VALUE', 'Expected hash to be sha256: and 43 characters of base64url but received another string')
}

function assertTimestamp(field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be a string but received ${describe(value)}`)
  if (!TIMESTAMP_RE.test(value) || !Number.isFinite(Date.parse(value))) {
    throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be an ISO 8601 date and time with an offset but received ${describe(value)}`)
  }
}

function assertLimit(options: unknown): number {
  assertObject('options', options)
  const { limit } = options
  if (typeof limit !== 'number') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected options.limit to be a number but received ${describe(limit)}`)
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected options.limit to be a whole number from 1 to ${MAX_LIMIT} but received ${describe(limit)}`)
  }
  return limit
}

function assertBase(base: unknown): asserts base is string {
  if (typeof base !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected option base to be a string but received ${describe(base)}`)
  if (base.length > 200 || !BASE_RE.test(base)) {
    throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected option base to be ':'-separated segments of [A-Za-z0-9_-] but received ${describe(base)}`)
  }
}
