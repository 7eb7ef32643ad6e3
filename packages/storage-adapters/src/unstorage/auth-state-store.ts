/**
 * The auth state store over any unstorage instance, and the one implementation behind the memory
 * and fs stores: `set`, `swap`, `add` and `delete` under a per-key lock, each value stored with
 * its expiry (`../auth-state-store.ts` describes the layout and the guarantees).
 *
 * @module unstorage/auth-state-store
 */
import { createHash } from 'node:crypto'
import type { AuthStateCapabilities, AuthStateStore } from '@litho/core/contracts'
import type { Storage } from 'unstorage'
import { DEFAULT_BASE, ENTRY_PATH_RE, SWEEP_INTERVAL_MS, assertKey, kit, readTtl, serializeValue } from '../kit/auth-state.js'
import { storageLock, type WithLock } from '../kit/locks.js'
import { readUnstorageOptions } from '../kit/store-base.js'
import { describe } from '../kit/validate.js'

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
  return unstorageStore({ storage, base, withLock: storageLock(storage), name: 'unstorage', capabilities: { persistent, shared: false }, ownsStorage: false })
}



/** A stored entry: the value with its key (checked on read) and its expiry. */
interface Entry {
  key: string
  expiresAt: number | null
  value: unknown
}

/** The one implementation over unstorage behind the memory, fs and unstorage factories. */
export function unstorageStore(args: {
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
