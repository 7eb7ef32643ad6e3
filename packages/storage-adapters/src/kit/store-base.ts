/**
 * The scaffolding the unstorage stores (designs, accounts, files) share, so each store's file
 * holds only its own logic: the errors every store throws, the input checks they have in common,
 * and the memory, fs and Redis factories built on a store's one unstorage implementation.
 * Internal: not exported.
 *
 * @module kit/store-base
 */
import { resolve } from 'node:path'
import type { LithoError } from '@litho/core/contracts'
import { conflictError, importPeer, isOwnError, storageError as backendError, typeError as codedTypeError, type CodedTypeError, type TypeErrorCode } from './errors.js'
import { createStorage, type Storage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import type redisDriver from 'unstorage/drivers/redis'
import { atomicFsDriver } from './atomic-fs-driver.js'
import { describe } from './validate.js'

/** Where Redis is unless a store's `url` says otherwise. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379'
/** Ids are `[A-Za-z0-9_-]`, so they never contain the `:` separator of keys. */
export const ID_RE = /^[A-Za-z0-9_-]{1,64}$/
/** ISO 8601 date and time with an offset; lists order by these as instants. */
export const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/
const BASE_RE = /^[A-Za-z0-9_-]+(?::[A-Za-z0-9_-]+)*$/

/** The Node-style codes of the TypeErrors the stores throw for bad input. */
export type { TypeErrorCode }

/**
 * The errors and common checks of one store. Every message starts with `[<label>]` and never
 * echoes a value the caller passed (it may be long or private): values are described. Keep it
 * in a constant typed `StoreKit`: TypeScript narrows through assertion methods only then.
 */
export interface StoreKit {
  /** `details.adapter` of the store's LithoErrors, e.g. `unstorage-design-store`. */
  readonly adapter: string
  /** The prefix of every key unless the caller gives a `base`, e.g. `litho:designs`. */
  readonly defaultBase: string
  /** A `TypeError` with a Node-style code. */
  typeError(code: TypeErrorCode, message: string): CodedTypeError
  /** `ERR_STORAGE`: the backend failed or holds data the store cannot read. */
  storageError(operation: string, message: string, cause?: unknown, details?: Record<string, unknown>): LithoError
  /** `ERR_STORE_CONFLICT` on `field`. The field is named, the value is not (an email, a secret). */
  conflictError(operation: string, field: string): LithoError
  /**
   * Runs `task`; a backend failure becomes `ERR_STORAGE` (the original is `cause`). Our own
   * errors (coded TypeErrors, LithoErrors) pass through. Only the backend's message is kept,
   * never a value: the stores' own messages never contain record content.
   */
  wrapBackendErrors<T>(operation: string, task: () => Promise<T>): Promise<T>
  /** A raw value of the driver as text: strings (memory, Redis) or bytes (fs); null when missing. */
  toText(value: unknown, operation: string): string | null
  assertObject(field: string, value: unknown): asserts value is Record<string, unknown>
  assertId(field: string, value: unknown): asserts value is string
  assertTimestamp(field: string, value: unknown): asserts value is string
  /** A key prefix: `:`-separated segments of `[A-Za-z0-9_-]`, at most 200 characters. */
  assertBase(base: unknown): asserts base is string
  /** A directory option (`base` of the fs stores, `dir` of the fs file store). */
  assertDirectory(option: string, value: unknown): asserts value is string
}

/** Builds the {@link StoreKit} of one store; `label` (`design-store`) starts its messages. */
export function storeKit({ label, adapter, defaultBase }: { label: string; adapter: string; defaultBase: string }): StoreKit {
  const typeError = (code: TypeErrorCode, message: string): CodedTypeError => codedTypeError(label, code, message)
  const storageError = (operation: string, message: string, cause?: unknown, details: Record<string, unknown> = {}): LithoError =>
    backendError(label, adapter, operation, message, cause, details)

  return {
    adapter,
    defaultBase,
    typeError,
    storageError,
    conflictError: (operation, field) => conflictError(label, adapter, operation, field),
    async wrapBackendErrors(operation, task) {
      try {
        return await task()
      } catch (error) {
        if (isOwnError(error)) throw error
        throw storageError(operation, error instanceof Error ? error.message : 'the backend failed', error)
      }
    },
    toText(value, operation) {
      if (value === null || value === undefined) return null
      if (typeof value === 'string') return value
      if (value instanceof Uint8Array) return new TextDecoder().decode(value)
      throw storageError(operation, `Expected a string or bytes from the driver but received ${describe(value)}`)
    },
    assertObject(field, value) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw typeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be an object but received ${describe(value)}`)
      }
    },
    assertId(field, value) {
      if (typeof value !== 'string') throw typeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be a string but received ${describe(value)}`)
      if (!ID_RE.test(value)) throw typeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be 1 to 64 characters of [A-Za-z0-9_-] but received ${describe(value)}`)
    },
    assertTimestamp(field, value) {
      if (typeof value !== 'string') throw typeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be a string but received ${describe(value)}`)
      if (!TIMESTAMP_RE.test(value) || !Number.isFinite(Date.parse(value))) {
        throw typeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be an ISO 8601 date and time with an offset but received ${describe(value)}`)
      }
    },
    assertBase(base) {
      if (typeof base !== 'string') throw typeError('ERR_INVALID_ARG_TYPE', `Expected option base to be a string but received ${describe(base)}`)
      if (base.length > 200 || !BASE_RE.test(base)) {
        throw typeError('ERR_INVALID_ARG_VALUE', `Expected option base to be ':'-separated segments of [A-Za-z0-9_-] but received ${describe(base)}`)
      }
    },
    assertDirectory(option, value) {
      if (value === undefined || value === '') throw typeError('ERR_MISSING_OPTION', `Expected option ${option} (a directory) but received none`)
      if (typeof value !== 'string') throw typeError('ERR_INVALID_ARG_TYPE', `Expected option ${option} to be a string but received ${describe(value)}`)
    },
  }
}

// --- the factories ---

/** What the factories need of a store: a name to set and, for those they create, `dispose`. */
interface Store {
  readonly name: string
  dispose?(): Promise<void>
}

/** How a store is made over an unstorage instance: its `unstorage…Store` function. */
type CreateStore<S> = (options: { storage: Storage; base?: string }) => S

/** The async methods of a store but `dispose`: what a Redis store forwards. */
type Method<S> = { [K in keyof S]-?: K extends 'dispose' ? never : NonNullable<S[K]> extends (...args: never[]) => Promise<unknown> ? K : never }[keyof S]

/** Checks, at compile time, that `M` names every method of `S`. */
type Every<S, M> = [Method<S>] extends [M] ? unknown : { missing: Exclude<Method<S>, M> }

/**
 * The options of `unstorage…Store`, checked: an unstorage instance (duck-typed) and a `base`
 * (the kit's default when not given).
 */
export function readUnstorageOptions(kit: StoreKit, options: unknown): { storage: Storage; base: string } {
  const { storage, base = kit.defaultBase } = (options ?? {}) as { storage?: Partial<Storage>; base?: unknown }
  if (typeof storage !== 'object' || storage === null || typeof storage.getItemRaw !== 'function' || typeof storage.getKeys !== 'function') {
    throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option storage to be an unstorage instance but received ${describe(storage)}`)
  }
  kit.assertBase(base)
  return { storage: storage as Storage, base }
}

/** The store over a storage a factory created: named after the backend, disposing the storage. */
function withStorage<S extends Store>(create: CreateStore<S>, name: string, storage: Storage, base?: string): S {
  return { ...create({ storage, base }), name, dispose: () => storage.dispose() }
}

/** A new, empty store in process memory (the unstorage memory driver). */
export function memoryStore<S extends Store>(create: CreateStore<S>): S {
  return withStorage(create, 'memory', createStorage({ driver: memoryDriver() }))
}

/**
 * Bytes of file content a file store keeps per instance, revalidated by a `stat` on every read: a
 * design record embedding a photo is about 500 KB, so a few dozen such designs stay warm.
 */
const FS_READ_CACHE_BYTES = 32 * 1024 * 1024

/**
 * A store in files under `options.base`. Writes go through the atomic fs driver: a crash
 * mid-write must never leave a truncated record behind.
 */
export function fsStore<S extends Store>(kit: StoreKit, create: CreateStore<S>, options: unknown): S {
  const base = (options as { base?: unknown } | undefined)?.base
  kit.assertDirectory('base', base)
  return withStorage(create, 'fs', createStorage({ driver: atomicFsDriver({ base: resolve(base), readCacheBytes: FS_READ_CACHE_BYTES }) }))
}

/**
 * The unstorage redis driver (over ioredis), loaded at the first call so that importing a store
 * never loads ioredis. A store sits on the request path: while Redis is down a call should fail
 * within about a second rather than wait through ioredis' default 20 attempts (as redisMeter).
 */
export async function loadRedisDriver(url: string): Promise<ReturnType<typeof redisDriver>> {
  // The driver imports ioredis, an optional peer dependency: a clear error names it when missing.
  const { default: createDriver } = await importPeer('redis', 'ioredis', () => import('unstorage/drivers/redis'))
  const driver = createDriver({ url, lazyConnect: true, maxRetriesPerRequest: 3, connectTimeout: 5_000 })
  // Errors reach callers through the rejected commands; without a listener ioredis also logs them.
  driver.getInstance?.()?.on('error', () => {})
  return driver
}

/**
 * A store on Redis, shared by any number of processes. Options are checked now; the store over
 * Redis is made at the first call, and every method (`methods`, all of them) forwards to it.
 * `dispose()` closes the connection; later calls reject with `ERR_STORAGE`.
 */
export function redisStore<S extends Store, M extends Method<S>>(
  kit: StoreKit,
  create: CreateStore<S>,
  options: { url?: string; base?: string },
  methods: readonly M[] & Every<S, M>,
): S {
  const { url = DEFAULT_REDIS_URL, base = kit.defaultBase } = options
  if (typeof url !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option url to be a string but received ${describe(url)}`)
  kit.assertBase(base)
  let loading: Promise<S> | undefined
  let disposed = false
  const load = (operation: string): Promise<S> => {
    if (disposed) return Promise.reject(kit.storageError(operation, 'The store was disposed'))
    return (loading ??= loadRedisDriver(url).then((driver) => withStorage(create, 'redis', createStorage({ driver }), base)))
  }
  const store: Record<string, unknown> = { name: 'redis' }
  for (const method of methods as readonly M[]) {
    store[method as string] = async (...args: unknown[]): Promise<unknown> => {
      const loaded = await kit.wrapBackendErrors(method as string, () => load(method as string))
      return (loaded[method] as (...a: unknown[]) => Promise<unknown>)(...args)
    }
  }
  store.dispose = async (): Promise<void> => {
    disposed = true
    const loaded = await loading?.catch(() => undefined)
    await loaded?.dispose?.()
  }
  return store as unknown as S
}
