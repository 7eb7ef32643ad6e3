/**
 * Auth state stores (the `AuthStateStore` port of `@litho/core/contracts`): the short-lived,
 * security-critical state of the built-in OAuth server, as JSON values under string keys with
 * an optional TTL, and two atomic operations, `swap` (write and return the previous value) and
 * `add` (write only when absent). Single-use authorization codes and refresh-token rotation rely
 * on `swap` being exactly-once: of N concurrent swaps on a key exactly one sees the value that
 * was there before them. Every factory passes the auth-state suite of `@litho/testing`.
 *
 * Two implementations:
 *
 * - {@link unstorageAuthStateStore} over any unstorage instance, and the {@link memoryAuthStateStore}
 *   and {@link fsAuthStateStore} built on it. unstorage has no compare-and-set, so `set`, `swap`,
 *   `add` and `delete` run under a per-key lock (a promise chain, `_lock.ts`): a read and a write
 *   with nothing of this process in between. Atomic within ONE process (capability `shared:
 *   false`). The fs lock is per directory and process-wide, so two fs stores over one directory
 *   in one process are atomic together. Each value is stored with its expiry:
 *   `{"key":"<key>","expiresAt":<epoch ms>|null,"value":<the value>}` under
 *   `<base>:<hh>:<sha256(key), hex>` (`hh` its first two characters). Hashing gives every key
 *   (with `:`, `.`, `..`, upper case) one safe file name, the same on case-insensitive file
 *   systems. An expired entry reads as absent; a sweep, started by a write at most every 10
 *   minutes, removes expired entries in the background.
 * - {@link redisAuthStateStore} talks to Redis through ioredis: `swap` is one `SET key value
 *   [PX ms] GET` and `add` one `SET key value [PX ms] NX`, each a single command that Redis runs
 *   atomically, so the guarantees hold across any number of processes (`shared: true`). Keys are
 *   `<base>:<key>`, values the JSON text, expiry Redis' own.
 *
 * Validation, the same for every factory: keys `[A-Za-z0-9_.:-]{1,250}`; values JSON (plain
 * objects, arrays, strings, finite numbers, booleans, and null inside them; not `undefined` or
 * `null` at the top); `ttlSeconds` a whole number from 1 to 315 360 000 (10 years). A bad argument
 * rejects with a TypeError (`ERR_INVALID_ARG_TYPE` when the argument has the wrong type,
 * `ERR_INVALID_ARG_VALUE` when it has the right one but breaks the rules, including anything
 * non-JSON inside a value) before the backend is touched. Backend failures reject with a
 * LithoError `ERR_STORAGE`. No message echoes a key or a value: they may be secrets.
 *
 * @module auth-state-store
 */
import { createHash } from 'node:crypto'
import { resolve } from 'node:path'
import type { AuthStateCapabilities, AuthStateStore } from '@litho/core/contracts'
import type { Redis } from 'ioredis'
import { closeOwnClient, createClient } from './kit/redis-client.js'
import { createStorage, type Storage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import { atomicFsDriver } from './kit/atomic-fs-driver.js'
import { createLock, type WithLock } from './kit/locks.js'
import { DEFAULT_REDIS_URL, readUnstorageOptions, storeKit, type StoreKit } from './kit/store-base.js'
import { describe } from './kit/validate.js'

/** Options of {@link unstorageAuthStateStore}. */
export interface UnstorageAuthStateStoreOptions {
  /** The unstorage instance to keep the state in (**required**). The store never disposes it. */
  storage: Storage
  /** Prefix of every key, `:`-separated segments of `[A-Za-z0-9_-]`. @default 'litho:auth-state' */
  base?: string
  /**
   * Whether the driver keeps data across restarts (fs, a database): the store's
   * `capabilities.persistent`, which the conformance suite then tests.
   * @default false
   */
  persistent?: boolean
}

/** Options of {@link fsAuthStateStore}. */
export interface FsAuthStateStoreOptions {
  /** The directory holding the state (**required**); created on first write. Keep it for auth state only. */
  base: string
}

/** Options of {@link redisAuthStateStore}. Give `url` or `client`, not both. */
export interface RedisAuthStateStoreOptions {
  /**
   * Where Redis is (6.2 or newer: `SET … GET`), e.g. `redis://:password@redis.internal:6379/0`.
   * The store creates its client at the first call and quits it in `dispose()`.
   * @default 'redis://127.0.0.1:6379'
   */
  url?: string
  /** Prefix of every key, `:`-separated segments of `[A-Za-z0-9_-]`. @default 'litho:auth-state' */
  base?: string
  /**
   * An ioredis client to use instead of creating one (e.g. shared with `redisMeter`). The store
   * never quits it; its retry options decide how fast calls fail while Redis is down.
   */
  client?: Redis
}

const LABEL = 'auth-state-store'
const DEFAULT_BASE = 'litho:auth-state'
const kit: StoreKit = storeKit({ label: LABEL, adapter: 'unstorage-auth-state-store', defaultBase: DEFAULT_BASE })
const redisKit: StoreKit = storeKit({ label: LABEL, adapter: 'redis-auth-state-store', defaultBase: DEFAULT_BASE })

/** The alphabet and length of keys: the port's rule. */
const KEY_RE = /^[A-Za-z0-9_.:-]{1,250}$/
/** 10 years: longer is a mistake (a unit error), and it keeps every backend's expiry arithmetic in range. */
const MAX_TTL_SECONDS = 10 * 365 * 24 * 60 * 60
/** The entries' paths under `base`: a shard and the hex SHA-256 of the key. */
const ENTRY_PATH_RE = /^[0-9a-f]{2}:[0-9a-f]{64}$/
/** How often (at most) a write starts a sweep of expired entries, in ms. */
const SWEEP_INTERVAL_MS = 10 * 60_000

/**
 * Options of the client the Redis store creates from `url`: the store sits on the sign-in path,
 * so while Redis is down a call should fail within about a second (as `redisMeter`).
 */

// --- unstorage ---

/** The fs stores' locks, shared by every fs store of this process (keys start with the directory). */
const fsLock = createLock()
/** The locks of the stores made by `unstorageAuthStateStore`, one per storage instance. */
const storageLocks = new WeakMap<Storage, WithLock>()

/**
 * Creates an auth state store over any unstorage instance. `set`, `swap`, `add` and `delete`
 * are serialised per key by a lock shared by every store over the same storage object, so
 * `swap` and `add` are atomic within this process only (`capabilities.shared` is false); for
 * several processes use {@link redisAuthStateStore}. Options are checked now; the storage is
 * first touched by the first call.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a missing storage, a bad `base` or `persistent`.
 * @example
 * import { createStorage } from 'unstorage'
 * import fsLiteDriver from 'unstorage/drivers/fs-lite'
 *
 * const state = unstorageAuthStateStore({ storage: createStorage({ driver: fsLiteDriver({ base: '.data/auth' }) }), persistent: true })
 * await state.set('code:abc', { clientId: 'c1' }, { ttlSeconds: 60 })
 * const code = await state.swap('code:abc', { used: true }, { ttlSeconds: 60 }) // null when already used
 */
export function unstorageAuthStateStore(options: UnstorageAuthStateStoreOptions): AuthStateStore {
  const { storage, base } = readUnstorageOptions(kit, options)
  const { persistent = false } = options
  if (typeof persistent !== 'boolean') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option persistent to be a boolean but received ${describe(persistent)}`)
  let withLock = storageLocks.get(storage)
  if (withLock === undefined) {
    withLock = createLock()
    storageLocks.set(storage, withLock)
  }
  return unstorageStore({ storage, base, withLock, name: 'unstorage', capabilities: { persistent, shared: false }, ownsStorage: false })
}

/**
 * An auth state store in process memory: for tests and development. Every call gives a new,
 * empty store; nothing survives the process, and `swap`/`add` are atomic within it.
 * Capabilities `{ persistent: false, shared: false }`.
 *
 * @example
 * const state = memoryAuthStateStore()
 * await state.add('client:c1', { redirectUris: ['https://app.example.com/cb'] }) // true
 */
export function memoryAuthStateStore(): AuthStateStore {
  const storage = createStorage({ driver: memoryDriver() })
  return unstorageStore({ storage, base: DEFAULT_BASE, withLock: createLock(), name: 'memory', capabilities: { persistent: false, shared: false }, ownsStorage: true })
}

/**
 * An auth state store in files under `options.base`: the state survives restarts. One file per
 * key, `<base>/litho/auth-state/<hh>/<sha256 of the key, hex>`, holding the value and its expiry;
 * every write goes to a temporary file renamed into place (the atomic fs driver), so a crash
 * never leaves a truncated entry. `set`, `swap`, `add` and `delete` hold a per-key lock shared
 * by every fs store of this process on the same directory, so `swap` and `add` are atomic within
 * ONE process: never point two processes at one directory (`capabilities.shared` is false).
 * Expired entries read as absent; a write starts a background sweep that removes them, at most
 * every 10 minutes (the first write of a store starts one; `dispose()` stops it). Capabilities
 * `{ persistent: true, shared: false }`.
 *
 * @throws {TypeError} `ERR_MISSING_OPTION` or `ERR_INVALID_ARG_TYPE` when `base` is missing or not a string.
 * @example
 * const state = fsAuthStateStore({ base: '.data/auth-state' })
 * await state.set('refresh:rt_1', { userId: 'u1' }, { ttlSeconds: 30 * 24 * 60 * 60 })
 * const previous = await state.swap('refresh:rt_1', { rotatedTo: 'rt_2' }) // the record, once
 */
export function fsAuthStateStore(options: FsAuthStateStoreOptions): AuthStateStore {
  const directory = (options as { base?: unknown } | undefined)?.base
  kit.assertDirectory('base', directory)
  const root = resolve(directory)
  const storage = createStorage({ driver: atomicFsDriver({ base: root }) })
  // NUL never occurs in a path, so the directory and the key cannot run into each other.
  const withLock: WithLock = (key, task) => fsLock(`${root}\u0000${key}`, task)
  return unstorageStore({ storage, base: DEFAULT_BASE, withLock, name: 'fs', capabilities: { persistent: true, shared: false }, ownsStorage: true })
}

/** A stored entry: the value with its key (checked on read) and its expiry. */
interface Entry {
  key: string
  expiresAt: number | null
  value: unknown
}

/** The one implementation over unstorage behind the memory, fs and unstorage factories. */
function unstorageStore(args: {
  storage: Storage
  base: string
  withLock: WithLock
  name: string
  capabilities: AuthStateCapabilities
  /** Whether `dispose` disposes the storage (the factories that created it). */
  ownsStorage: boolean
}): AuthStateStore {
  const { storage, base, withLock, name, ownsStorage } = args
  const capabilities: AuthStateCapabilities = { ...args.capabilities }
  const pathOf = (key: string): string => {
    const hex = createHash('sha256').update(key, 'utf8').digest('hex')
    return `${base}:${hex.slice(0, 2)}:${hex}`
  }

  const read = async (path: string, key: string | undefined, operation: string): Promise<Entry | null> => {
    const text = kit.toText(await storage.getItemRaw(path), operation)
    return text === null ? null : parseEntry(text, key, operation)
  }
  const write = (path: string, key: string, json: string, ttlSeconds: number | undefined): Promise<void> => {
    const expiresAt = ttlSeconds === undefined ? 'null' : String(Date.now() + ttlSeconds * 1000)
    // The value's JSON is embedded as it is: it was produced by JSON.stringify.
    return storage.setItemRaw(path, `{"key":${JSON.stringify(key)},"expiresAt":${expiresAt},"value":${json}}`)
  }

  let disposed = false
  /** Runs `task` on the key's path under its lock; backend failures become `ERR_STORAGE`. */
  const locked = <T>(operation: string, key: string, task: (path: string) => Promise<T>): Promise<T> => {
    if (disposed) return Promise.reject(kit.storageError(operation, 'The store was disposed'))
    const path = pathOf(key)
    return withLock(path, () => kit.wrapBackendErrors(operation, () => task(path)))
  }

  // The sweep: best effort, in the background, at most every SWEEP_INTERVAL_MS, started by writes.
  let lastSweep = 0
  let sweeping: Promise<void> | undefined
  const sweepSoon = (): void => {
    const now = Date.now()
    if (sweeping !== undefined || now - lastSweep < SWEEP_INTERVAL_MS) return
    lastSweep = now
    sweeping = sweep().finally(() => {
      sweeping = undefined
    })
  }
  const sweep = async (): Promise<void> => {
    const prefix = `${base}:`
    let paths: string[]
    try {
      paths = await storage.getKeys(base)
    } catch {
      return
    }
    for (const path of paths) {
      if (disposed) return
      if (!path.startsWith(prefix) || !ENTRY_PATH_RE.test(path.slice(prefix.length))) continue
      // Under the key's lock, and read again: a swap may have written it since the listing.
      await withLock(path, async () => {
        const text = kit.toText(await storage.getItemRaw(path), 'sweep')
        if (text !== null && !isLive(parseEntry(text, undefined, 'sweep'))) await storage.removeItem(path)
      }).catch(() => {}) // an unreadable entry is left alone; the next sweep tries again
    }
  }

  return {
    name,
    capabilities,

    async get(key: string): Promise<unknown | null> {
      assertKey(kit, key)
      if (disposed) throw kit.storageError('get', 'The store was disposed')
      // No lock: every write replaces the whole entry at once, so a read sees the old or the new one.
      return kit.wrapBackendErrors('get', async () => {
        const entry = await read(pathOf(key), key, 'get')
        return isLive(entry) ? entry.value : null
      })
    },

    async set(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<void> {
      assertKey(kit, key)
      const json = serializeValue(kit, value)
      const ttlSeconds = readTtl(kit, options)
      // Locked too, so that it never lands between the read and the write of a swap.
      await locked('set', key, (path) => write(path, key, json, ttlSeconds))
      sweepSoon()
    },

    async swap(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<unknown | null> {
      assertKey(kit, key)
      const json = serializeValue(kit, value)
      const ttlSeconds = readTtl(kit, options)
      const previous = await locked('swap', key, async (path) => {
        const entry = await read(path, key, 'swap')
        const replaced = isLive(entry) ? entry.value : null
        await write(path, key, json, ttlSeconds)
        return replaced
      })
      sweepSoon()
      return previous
    },

    async add(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<boolean> {
      assertKey(kit, key)
      const json = serializeValue(kit, value)
      const ttlSeconds = readTtl(kit, options)
      const added = await locked('add', key, async (path) => {
        if (isLive(await read(path, key, 'add'))) return false
        await write(path, key, json, ttlSeconds)
        return true
      })
      if (added) sweepSoon()
      return added
    },

    async delete(key: string): Promise<boolean> {
      assertKey(kit, key)
      return locked('delete', key, async (path) => {
        const entry = await read(path, key, 'delete')
        if (entry === null) return false
        await storage.removeItem(path)
        return isLive(entry)
      })
    },

    async dispose(): Promise<void> {
      disposed = true
      // The sweep stops at its next entry; waiting for it keeps it off a disposed storage.
      await sweeping
      if (ownsStorage) await storage.dispose()
    },
  }
}

/** Whether an entry exists and has not expired. */
function isLive(entry: Entry | null): entry is Entry {
  return entry !== null && (entry.expiresAt === null || entry.expiresAt > Date.now())
}

/** Parses a stored entry; `key`, when given, must be the one stored (a hash collision or a misplaced file otherwise). */
function parseEntry(text: string, key: string | undefined, operation: string): Entry {
  let entry: unknown
  try {
    entry = JSON.parse(text)
  } catch {
    throw kit.storageError(operation, 'Expected an auth state entry (JSON) but found something else')
  }
  const { key: storedKey, expiresAt } = (entry ?? {}) as Partial<Entry>
  if (
    typeof entry !== 'object' ||
    entry === null ||
    !('value' in entry) ||
    typeof storedKey !== 'string' ||
    (key !== undefined && storedKey !== key) ||
    !(expiresAt === null || (typeof expiresAt === 'number' && Number.isFinite(expiresAt)))
  ) {
    throw kit.storageError(operation, 'Expected an auth state entry of the key but found something else')
  }
  return entry as Entry
}

// --- Redis ---

/**
 * Creates an auth state store on Redis, shared by any number of processes and machines. Each
 * operation is one Redis command, which Redis runs atomically:
 *
 * - `get` → `GET <base>:<key>`; `delete` → `DEL`;
 * - `set` → `SET <key> <json> [PX <ms>]` (without a TTL, a previous TTL is cleared);
 * - `swap` → `SET <key> <json> [PX <ms>] GET`: the write and the read of the previous value are
 *   one step, so of N concurrent swaps exactly one sees the value before them, on any number of
 *   instances;
 * - `add` → `SET <key> <json> [PX <ms>] NX`.
 *
 * Values are their JSON text; expiry is Redis' own (to the millisecond). Needs Redis 6.2 or newer
 * (or a compatible server, e.g. Valkey). ioredis is loaded, and the connection made, at the first
 * call; `dispose()` closes a connection the store created. While Redis is down calls reject with
 * `ERR_STORAGE` within about a second.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for bad options (both `url` and `client`, a bad `base`, …).
 * @example
 * const state = redisAuthStateStore({ url: process.env.REDIS_URL })
 * await state.set('code:abc', { clientId: 'c1', userId: 'u1' }, { ttlSeconds: 60 })
 * // Redeem once: of any number of concurrent redemptions, one gets the code, the rest null or the marker.
 * const code = await state.swap('code:abc', { used: true }, { ttlSeconds: 60 })
 */
export function redisAuthStateStore(options: RedisAuthStateStoreOptions = {}): AuthStateStore {
  if (typeof options !== 'object' || options === null) throw redisKit.typeError('ERR_INVALID_ARG_TYPE', `Expected options to be an object but received ${describe(options)}`)
  const { url, client: givenClient, base = DEFAULT_BASE } = options
  if (url !== undefined && givenClient !== undefined) {
    throw redisKit.typeError('ERR_INVALID_ARG_VALUE', 'Expected either option url or option client but received both')
  }
  if (url !== undefined && typeof url !== 'string') throw redisKit.typeError('ERR_INVALID_ARG_TYPE', `Expected option url to be a string but received ${describe(url)}`)
  if (givenClient !== undefined && (typeof givenClient !== 'object' || givenClient === null || typeof givenClient.set !== 'function')) {
    throw redisKit.typeError('ERR_INVALID_ARG_TYPE', `Expected option client to be an ioredis client but received ${describe(givenClient)}`)
  }
  redisKit.assertBase(base)

  let clientPromise: Promise<Redis> | undefined
  let disposed = false
  /** Runs `task` with the client; backend failures become `ERR_STORAGE`. */
  const run = <T>(operation: string, task: (client: Redis) => Promise<T>): Promise<T> =>
    redisKit.wrapBackendErrors(operation, async () => {
      if (disposed) throw redisKit.storageError(operation, 'The store was disposed')
      clientPromise ??= givenClient ? Promise.resolve(givenClient) : createClient(url ?? DEFAULT_REDIS_URL)
      return task(await clientPromise)
    })
  const redisKey = (key: string): string => `${base}:${key}`
  const parse = (text: string | null, operation: string): unknown | null => {
    if (text === null) return null
    try {
      return JSON.parse(text)
    } catch {
      throw redisKit.storageError(operation, 'Expected JSON under the key but found something else')
    }
  }

  return {
    name: 'redis',
    capabilities: { persistent: true, shared: true },

    async get(key: string): Promise<unknown | null> {
      assertKey(redisKit, key)
      return run('get', async (client) => parse(await client.get(redisKey(key)), 'get'))
    },

    async set(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<void> {
      assertKey(redisKit, key)
      const json = serializeValue(redisKit, value)
      const ttlSeconds = readTtl(redisKit, options)
      await run('set', (client) => (ttlSeconds === undefined ? client.set(redisKey(key), json) : client.set(redisKey(key), json, 'PX', ttlSeconds * 1000)))
    },

    async swap(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<unknown | null> {
      assertKey(redisKit, key)
      const json = serializeValue(redisKit, value)
      const ttlSeconds = readTtl(redisKit, options)
      return run('swap', async (client) => {
        const previous =
          ttlSeconds === undefined ? await client.set(redisKey(key), json, 'GET') : await client.set(redisKey(key), json, 'PX', ttlSeconds * 1000, 'GET')
        return parse(previous, 'swap')
      })
    },

    async add(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<boolean> {
      assertKey(redisKit, key)
      const json = serializeValue(redisKit, value)
      const ttlSeconds = readTtl(redisKit, options)
      return run('add', async (client) => {
        const reply = ttlSeconds === undefined ? await client.set(redisKey(key), json, 'NX') : await client.set(redisKey(key), json, 'PX', ttlSeconds * 1000, 'NX')
        return reply === 'OK'
      })
    },

    async delete(key: string): Promise<boolean> {
      assertKey(redisKit, key)
      return run('delete', async (client) => (await client.del(redisKey(key))) > 0)
    },

    async dispose(): Promise<void> {
      disposed = true
      await closeOwnClient(givenClient, clientPromise)
    },
  }
}


// --- validation, the same for every factory ---

/** Keys are never described beyond their type and length: they may hold a code or a token. */
function assertKey(kit: StoreKit, key: unknown): asserts key is string {
  if (typeof key !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected key to be a string but received ${describe(key)}`)
  if (!KEY_RE.test(key)) throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected key to be 1 to 250 characters of [A-Za-z0-9_.:-] but received ${describe(key)}`)
}

/** `options.ttlSeconds`, checked: undefined (no expiry) or a whole number of seconds. */
function readTtl(kit: StoreKit, options: unknown): number | undefined {
  if (options === undefined) return undefined
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected options to be an object but received ${describe(options)}`)
  }
  const { ttlSeconds } = options as { ttlSeconds?: unknown }
  if (ttlSeconds === undefined) return undefined
  if (typeof ttlSeconds !== 'number') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected options.ttlSeconds to be a number but received ${describe(ttlSeconds)}`)
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_TTL_SECONDS) {
    throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected options.ttlSeconds to be a whole number from 1 to ${MAX_TTL_SECONDS} but received ${describe(ttlSeconds)}`)
  }
  return ttlSeconds
}

/**
 * The value's JSON, after checking that it round-trips: the wrong type at the top (undefined,
 * null, a function, a symbol, a bigint, a Date or other non-plain object) is `ERR_INVALID_ARG_TYPE`;
 * anything non-JSON inside it (a non-finite number, a function, undefined in an array, a cycle,
 * …) is `ERR_INVALID_ARG_VALUE`. `undefined` properties of objects are left out, as JSON does.
 */
function serializeValue(kit: StoreKit, value: unknown): string {
  const expected = 'Expected value to be JSON (a plain object, an array, a string, a number or a boolean)'
  if (value === null || !isJsonKind(value)) throw kit.typeError('ERR_INVALID_ARG_TYPE', `${expected} but received ${describeValue(value)}`)
  const problem = findNonJson(value, new Set())
  if (problem !== undefined) throw kit.typeError('ERR_INVALID_ARG_VALUE', `${expected} but it contains ${problem}`)
  return JSON.stringify(value)
}

/** Whether `value` is of a JSON kind: null, a boolean, a number, a string, an array or a plain object. */
function isJsonKind(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return true
  if (typeof value !== 'object') return false
  if (Array.isArray(value)) return true
  const prototype = Object.getPrototypeOf(value) as unknown
  return prototype === Object.prototype || prototype === null
}

/** What in `value` JSON cannot carry faithfully (described, never echoed), or undefined. */
function findNonJson(value: unknown, ancestors: Set<object>): string | undefined {
  if (!isJsonKind(value)) return describeValue(value)
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number that is not finite'
  if (typeof value !== 'object' || value === null) return undefined
  if (ancestors.has(value)) return 'a cycle'
  ancestors.add(value)
  try {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        // A hole or undefined in an array would come back as null.
        if (value[index] === undefined) return 'undefined in an array'
        const problem = findNonJson(value[index], ancestors)
        if (problem !== undefined) return problem
      }
    } else {
      for (const property of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[property]
        if (item === undefined) continue
        const problem = findNonJson(item, ancestors)
        if (problem !== undefined) return problem
      }
    }
    return undefined
  } finally {
    ancestors.delete(value)
  }
}

/** {@link describe}, naming the kinds JSON lacks. */
function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (typeof value === 'function') return 'a function'
  if (typeof value === 'symbol') return 'a symbol'
  if (typeof value === 'bigint') return 'a bigint'
  if (typeof value === 'object' && value !== null && !isJsonKind(value)) return Object.prototype.toString.call(value) === '[object Date]' ? 'a Date' : 'an object that is not plain (a class instance, a Map, …)'
  return describe(value)
}
