/**
 * A design store on unstorage: ONE implementation over any unstorage driver (memory, fs, Redis,
 * …), so every backend behaves the same and passes the design-store suite of `@litho/testing`.
 *
 * Key layout (`base` defaults to `litho:designs`; ids, owner ids and render codes are
 * `[A-Za-z0-9_-]`, so they never contain the `:` separator):
 * - `<base>:d:<id>` → the record, as JSON.
 * - `<base>:code:<renderCode>` → the id, as a plain string.
 * - `<base>:owner:<ownerId>:<id>` → `{"updatedAt":"…"}`, one index entry per design. There is
 *   no shared list value, so concurrent creates never overwrite each other's index.
 *
 * Write order, so a crash never leaves anything `get` could return half-written:
 * - create writes the record first, then the code, then the index entry;
 * - delete removes the record first, then the code, then the index entry.
 * A code or index entry whose record is missing ("dangling") is ignored by every read.
 *
 * Consistency: `get` and `getByRenderCode` read their own writes (one key each). Conflicts of
 * id or render code are detected on one instance (in-process, even for concurrent calls), not
 * across instances sharing a backend (the port allows this: ids and codes are random). Writes
 * to one id are serialized per instance; across instances the last write wins, and the index
 * entry's `updatedAt` (used for the order of lists) may briefly disagree with the record's.
 *
 * @module design-store
 */
import { resolve } from 'node:path'
import type { DesignRecord, DesignStore, DesignSummary } from '@litho/core/contracts'
import { LithoError } from '@litho/core/errors'
import { atomicFsDriver } from './_atomic-fs-driver.js'
import { createStorage, type Storage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import { describe } from './_validate.js'

/** Options of {@link unstorageDesignStore}. */
export interface UnstorageDesignStoreOptions {
  /** The unstorage instance to keep designs in (**required**). The store never disposes it. */
  storage: Storage
  /** Prefix of every key, `:`-separated segments of `[A-Za-z0-9_-]`. @default 'litho:designs' */
  base?: string
}

/** Options of {@link fsDesignStore}. */
export interface FsDesignStoreOptions {
  /** The directory holding the designs (**required**); created on first write. */
  base: string
}

/** Options of {@link redisDesignStore}. */
export interface RedisDesignStoreOptions {
  /** Where Redis is. @default 'redis://127.0.0.1:6379' */
  url?: string
  /** Prefix of every key. @default 'litho:designs' */
  base?: string
}

const ADAPTER = 'unstorage-design-store'
const DEFAULT_BASE = 'litho:designs'
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379'
const BASE_RE = /^[A-Za-z0-9_-]+(?::[A-Za-z0-9_-]+)*$/
const ID_RE = /^[A-Za-z0-9_-]{1,64}$/
const RENDER_CODE_RE = /^[A-Za-z0-9_-]{16,64}$/
/** ISO 8601 date and time with an offset; the list order compares these as instants. */
const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/
/** The largest page: the port's bound, so one list call reads at most this many records. */
const MAX_LIMIT = 100
/**
 * Backend calls issued at once by a list: an owner with thousands of designs must not open
 * thousands of files (EMFILE) or queue thousands of Redis commands in one burst.
 */
const BATCH_SIZE = 100

/**
 * Creates a design store over an unstorage instance. Options are checked now; the storage is
 * first touched by the first call.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a missing storage or a bad `base`.
 * @example
 * import { createStorage } from 'unstorage'
 * import redisDriver from 'unstorage/drivers/redis'
 *
 * const designs = unstorageDesignStore({ storage: createStorage({ driver: redisDriver({ url: process.env.REDIS_URL }) }) })
 * const design = await designs.get('d_8f3k2m9x1q7w')
 */
export function unstorageDesignStore(options: UnstorageDesignStoreOptions): DesignStore {
  const { storage, base = DEFAULT_BASE } = (options ?? {}) as Partial<UnstorageDesignStoreOptions>
  if (typeof storage !== 'object' || storage === null || typeof storage.getItemRaw !== 'function' || typeof storage.getKeys !== 'function') {
    throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected option storage to be an unstorage instance but received ${describe(storage)}`)
  }
  assertBase(base)

  const recordKey = (id: string) => `${base}:d:${id}`
  const codeKey = (renderCode: string) => `${base}:code:${renderCode}`
  const ownerPrefix = (ownerId: string) => `${base}:owner:${ownerId}:`
  const indexKey = (ownerId: string, id: string) => `${ownerPrefix(ownerId)}${id}`

  /** Reads and parses a record; null when missing. Corrupt data rejects, never returns. */
  const readRecord = async (id: string, operation: string): Promise<DesignRecord | null> => {
    const text = toText(await storage.getItemRaw(recordKey(id)))
    if (text === null) return null
    return parseRecord(text, id, operation)
  }

  /** The id a render code points to, or null (missing, or a dangling entry). */
  const readCode = async (renderCode: string, operation: string): Promise<string | null> => {
    const id = toText(await storage.getItemRaw(codeKey(renderCode)))
    if (id === null) return null
    if (!ID_RE.test(id)) throw createStorageError(operation, `Expected an id under a render code key but found ${describe(id)}`)
    return id
  }

  // Per-instance serialization of the writes to one id, and the render codes being created, so
  // that the conflict checks hold even for concurrent calls on this instance.
  const locks = new Map<string, Promise<void>>()
  const pendingCodes = new Set<string>()
  const withLock = <T>(id: string, task: () => Promise<T>): Promise<T> => {
    const previous = locks.get(id) ?? Promise.resolve()
    const result = previous.then(task)
    const tail = result.then(
      () => undefined,
      () => undefined,
    )
    locks.set(id, tail)
    void tail.then(() => {
      if (locks.get(id) === tail) locks.delete(id)
    })
    return result
  }

  return {
    name: 'unstorage',

    async create(record: DesignRecord): Promise<void> {
      const text = serializeRecord(record)
      const { id, ownerId, renderCode, updatedAt } = record
      if (pendingCodes.has(renderCode)) throw createConflictError('renderCode')
      pendingCodes.add(renderCode)
      try {
        await withLock(id, () =>
          wrapBackendErrors('create', async () => {
            // Best effort (the port asks no more): checked, then written, not atomically.
            if (await storage.hasItem(recordKey(id))) throw createConflictError('id')
            const owner = await readCode(renderCode, 'create')
            if (owner !== null && (await readRecord(owner, 'create'))?.renderCode === renderCode) throw createConflictError('renderCode')
            await storage.setItemRaw(recordKey(id), text)
            await storage.setItemRaw(codeKey(renderCode), id)
            await storage.setItemRaw(indexKey(ownerId, id), JSON.stringify({ updatedAt }))
          }),
        )
      } finally {
        pendingCodes.delete(renderCode)
      }
    },

    async get(id: string): Promise<DesignRecord | null> {
      assertId('id', id)
      return wrapBackendErrors('get', () => readRecord(id, 'get'))
    },

    async getByRenderCode(renderCode: string): Promise<DesignRecord | null> {
      assertRenderCode(renderCode)
      return wrapBackendErrors('getByRenderCode', async () => {
        const id = await readCode(renderCode, 'getByRenderCode')
        if (id === null) return null
        const record = await readRecord(id, 'getByRenderCode')
        // A dangling code (its record deleted) finds nothing.
        return record?.renderCode === renderCode ? record : null
      })
    },

    async update(record: DesignRecord): Promise<boolean> {
      const text = serializeRecord(record)
      return withLock(record.id, () =>
        wrapBackendErrors('update', async () => {
          const stored = await readRecord(record.id, 'update')
          if (stored === null) return false
          for (const field of ['ownerId', 'renderCode', 'createdAt'] as const) {
            if (record[field] !== stored[field]) {
              throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be the stored one (it never changes) but received a different value`)
            }
          }
          await storage.setItemRaw(recordKey(record.id), text)
          await storage.setItemRaw(indexKey(record.ownerId, record.id), JSON.stringify({ updatedAt: record.updatedAt }))
          return true
        }),
      )
    },

    async delete(id: string): Promise<boolean> {
      assertId('id', id)
      return withLock(id, () =>
        wrapBackendErrors('delete', async () => {
          const stored = await readRecord(id, 'delete')
          if (stored === null) return false
          // Record first: from here on get finds nothing; what is left can only dangle.
          await storage.removeItem(recordKey(id))
          if ((await readCode(stored.renderCode, 'delete')) === id) await storage.removeItem(codeKey(stored.renderCode))
          await storage.removeItem(indexKey(stored.ownerId, id))
          return true
        }),
      )
    },

    async listByOwner(ownerId: string, page: { offset: number; limit: number }): Promise<{ items: DesignSummary[]; total: number }> {
      assertId('ownerId', ownerId)
      assertPage(page)
      const { offset, limit } = page
      return wrapBackendErrors('listByOwner', async () => {
        const prefix = ownerPrefix(ownerId)
        const ids = (await storage.getKeys(prefix))
          .filter((key) => key.startsWith(prefix))
          .map((key) => key.slice(prefix.length))
          .filter((id) => ID_RE.test(id))
        const entries: Array<{ id: string; updatedAt: string; time: number }> = []
        for (let start = 0; start < ids.length; start += BATCH_SIZE) {
          const batch = ids.slice(start, start + BATCH_SIZE)
          const [values, present] = await Promise.all([
            storage.getItems(batch.map((id) => indexKey(ownerId, id))),
            // Dangling entries (record missing) are not counted: one existence check each.
            Promise.all(batch.map((id) => storage.hasItem(recordKey(id)))),
          ])
          for (const [index, id] of batch.entries()) {
            if (!present[index]) continue
            const updatedAt = readIndexEntry(values[index]?.value)
            // An unreadable entry sorts last rather than failing the whole list.
            entries.push({ id, updatedAt: updatedAt ?? '', time: updatedAt === null ? Number.NEGATIVE_INFINITY : Date.parse(updatedAt) })
          }
        }
        entries.sort((a, b) => (a.time === b.time ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : b.time - a.time))
        const slice = entries.slice(offset, offset + limit)
        // Names come from the records, read only for this page.
        const records = await Promise.all(slice.map((entry) => readRecord(entry.id, 'listByOwner')))
        const items: DesignSummary[] = []
        for (const record of records) {
          // Deleted (or moved) since the index was read: left out.
          if (record !== null && record.ownerId === ownerId) items.push({ id: record.id, name: record.name, updatedAt: record.updatedAt })
        }
        return { items, total: entries.length }
      })
    },
  }
}

/**
 * A design store in process memory (the unstorage memory driver): for tests and development.
 * Every call gives a new, empty store; nothing survives the process.
 *
 * @example
 * const designs = memoryDesignStore()
 * await designs.create({ id: 'd_8f3k2m9x1q7w', ownerId: 'acct_1', name: 'Card', renderCode: 'rc_4Kq9xV2mTn8pLw3z', design: null, draft: {}, createdAt: now, updatedAt: now })
 */
export function memoryDesignStore(): DesignStore {
  return withStorage('memory', createStorage({ driver: memoryDriver() }))
}

/**
 * A design store in files under `options.base` (the unstorage fs driver): designs survive
 * restarts. Files are written in place (not renamed into place): a crash mid-write can leave a
 * corrupt file, which then rejects with `ERR_STORAGE` rather than being returned. Lists read the
 * names of every file under `base` (the fs driver lists keys recursively from its root), so keep
 * one directory for designs only.
 *
 * @throws {TypeError} `ERR_MISSING_OPTION` or `ERR_INVALID_ARG_TYPE` when `base` is missing or not a string.
 * @example
 * const designs = fsDesignStore({ base: '.data/designs' })
 */
export function fsDesignStore(options: FsDesignStoreOptions): DesignStore {
  const base = (options as Partial<FsDesignStoreOptions> | undefined)?.base
  if (base === undefined || base === '') throw createTypeError('ERR_MISSING_OPTION', 'Expected option base (a directory) but received none')
  if (typeof base !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected option base to be a string but received ${describe(base)}`)
  // Atomic writes: a crash mid-write must never leave a truncated design behind.
  return withStorage('fs', createStorage({ driver: atomicFsDriver({ base: resolve(base) }) }))
}

/**
 * A design store on Redis (the unstorage redis driver, over ioredis): shared by any number of
 * processes. ioredis is loaded, and the connection made, at the first call; `dispose()` closes it.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a bad `url` or `base`.
 * @example
 * const designs = redisDesignStore({ url: process.env.REDIS_URL })
 * const design = await designs.getByRenderCode('rc_4Kq9xV2mTn8pLw3z')
 */
export function redisDesignStore(options: RedisDesignStoreOptions = {}): DesignStore {
  const { url = DEFAULT_REDIS_URL, base = DEFAULT_BASE } = options
  if (typeof url !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected option url to be a string but received ${describe(url)}`)
  assertBase(base)
  let loading: Promise<DesignStore> | undefined
  let disposed = false
  const load = (operation: string): Promise<DesignStore> => {
    if (disposed) return Promise.reject(createStorageError(operation, 'The store was disposed'))
    return (loading ??= import('unstorage/drivers/redis').then(({ default: redisDriver }) => {
      // A store sits on the request path: while Redis is down a call should fail within about a
      // second rather than wait through ioredis' default 20 attempts (the same as redisMeter).
      const driver = redisDriver({ url, lazyConnect: true, maxRetriesPerRequest: 3, connectTimeout: 5_000 })
      const client = driver.getInstance?.()
      // Errors reach callers through the rejected commands; without a listener ioredis also logs them.
      client?.on('error', () => {})
      return withStorage('redis', createStorage({ driver }), base)
    }))
  }
  const forward =
    <K extends 'create' | 'get' | 'getByRenderCode' | 'update' | 'delete' | 'listByOwner'>(method: K) =>
    async (...args: Parameters<DesignStore[K]>): Promise<Awaited<ReturnType<DesignStore[K]>>> => {
      const store = await wrapBackendErrors(method, () => load(method))
      return (await (store[method] as (...a: unknown[]) => Promise<unknown>)(...args)) as Awaited<ReturnType<DesignStore[K]>>
    }
  return {
    name: 'redis',
    create: forward('create'),
    get: forward('get'),
    getByRenderCode: forward('getByRenderCode'),
    update: forward('update'),
    delete: forward('delete'),
    listByOwner: forward('listByOwner'),
    async dispose(): Promise<void> {
      disposed = true
      const store = await loading?.catch(() => undefined)
      await store?.dispose?.()
    },
  }
}

// --- internal helpers ---

/** The store over a storage this file created: named after the backend, disposing the storage. */
function withStorage(name: string, storage: Storage, base?: string): DesignStore {
  return { ...unstorageDesignStore({ storage, base }), name, dispose: () => storage.dispose() }
}

type TypeErrorCode = 'ERR_INVALID_ARG_TYPE' | 'ERR_INVALID_ARG_VALUE' | 'ERR_MISSING_OPTION'

/** A `TypeError` with a Node-style code; the message never echoes caller input. */
function createTypeError(code: TypeErrorCode, message: string): TypeError & { code: TypeErrorCode } {
  const error = Object.assign(new TypeError(`[design-store] ${message}`), { code })
  if (Error.captureStackTrace) Error.captureStackTrace(error, createTypeError)
  return error
}

function createStorageError(operation: string, message: string, cause?: unknown): LithoError {
  return new LithoError('ERR_STORAGE', `[design-store] ${operation}: ${message}`, { cause, details: { adapter: ADAPTER, operation } })
}

/** The field is named, the value is not: a render code is a secret of sorts. */
function createConflictError(field: 'id' | 'renderCode'): LithoError {
  return new LithoError('ERR_STORE_CONFLICT', `[design-store] create: Expected an unused ${field} but received one already stored`, {
    details: { adapter: ADAPTER, operation: 'create', field },
  })
}

/**
 * Runs `task`; a backend failure becomes `ERR_STORAGE` (the original is `cause`). Our own
 * errors (TypeErrors, LithoErrors) pass through. Only the backend's message is kept, never a
 * value: the stores' messages never contain record content.
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
function toText(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (value instanceof Uint8Array) return new TextDecoder().decode(value)
  throw createStorageError('read', `Expected a string or bytes from the driver but received ${describe(value)}`)
}

/** Parses a stored record; anything but a record of `id` is corrupt data, never returned. */
function parseRecord(text: string, id: string, operation: string): DesignRecord {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw createStorageError(operation, `Expected the record of ${id} to be JSON but found ${describe(text)} that are not`)
  }
  const record = value as Partial<DesignRecord> | null
  if (typeof record !== 'object' || record === null || record.id !== id || typeof record.ownerId !== 'string' || typeof record.renderCode !== 'string') {
    throw createStorageError(operation, `Expected the record of ${id} to be a design record but found ${describe(value)}`)
  }
  return record as DesignRecord
}

/** `updatedAt` of an index entry (parsed by unstorage or still text), or null when unreadable. */
function readIndexEntry(value: unknown): string | null {
  let entry = value
  if (typeof entry === 'string') {
    try {
      entry = JSON.parse(entry)
    } catch {
      return null
    }
  }
  const updatedAt = (entry as { updatedAt?: unknown } | null)?.updatedAt
  return typeof updatedAt === 'string' && Number.isFinite(Date.parse(updatedAt)) ? updatedAt : null
}

/** Validates a record and returns its JSON (only the fields of the port, in a fixed order). */
function serializeRecord(record: unknown): string {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected record to be an object but received ${describe(record)}`)
  }
  const { id, ownerId, name, renderCode, design, draft, createdAt, updatedAt } = record as Record<string, unknown>
  assertId('id', id)
  assertId('ownerId', ownerId)
  assertRenderCode(renderCode)
  if (typeof name !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected name to be a string but received ${describe(name)}`)
  assertTimestamp('createdAt', createdAt)
  assertTimestamp('updatedAt', updatedAt)
  for (const [field, value] of [['design', design], ['draft', draft]] as const) {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
      throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be JSON or null but received ${describe(value)}`)
    }
  }
  try {
    return JSON.stringify({ id, ownerId, name, renderCode, design, draft, createdAt, updatedAt })
  } catch {
    // A cycle, or a BigInt deep inside.
    throw createTypeError('ERR_INVALID_ARG_VALUE', 'Expected design and draft to be JSON but received a value JSON.stringify rejects')
  }
}

function assertId(field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be a string but received ${describe(value)}`)
  if (!ID_RE.test(value)) throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be 1 to 64 characters of [A-Za-z0-9_-] but received ${describe(value)}`)
}

function assertRenderCode(value: unknown): asserts value is string {
  if (typeof value !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected renderCode to be a string but received ${describe(value)}`)
  if (!RENDER_CODE_RE.test(value)) {
    throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected renderCode to be 16 to 64 characters of [A-Za-z0-9_-] but received ${describe(value)}`)
  }
}

function assertTimestamp(field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be a string but received ${describe(value)}`)
  if (!TIMESTAMP_RE.test(value) || !Number.isFinite(Date.parse(value))) {
    throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be an ISO 8601 date and time with an offset but received ${describe(value)}`)
  }
}

function assertPage(page: unknown): asserts page is { offset: number; limit: number } {
  if (typeof page !== 'object' || page === null || Array.isArray(page)) {
    throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected page to be an object but received ${describe(page)}`)
  }
  const { offset, limit } = page as Record<string, unknown>
  for (const [field, value, min, max] of [['offset', offset, 0, Number.MAX_SAFE_INTEGER], ['limit', limit, 1, MAX_LIMIT]] as const) {
    if (typeof value !== 'number') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected page.${field} to be a number but received ${describe(value)}`)
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      const range = field === 'limit' ? `from 1 to ${MAX_LIMIT}` : '≥ 0'
      throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected page.${field} to be a whole number ${range} but received ${describe(value)}`)
    }
  }
}

function assertBase(base: unknown): asserts base is string {
  if (typeof base !== 'string') throw createTypeError('ERR_INVALID_ARG_TYPE', `Expected option base to be a string but received ${describe(base)}`)
  if (base.length > 200 || !BASE_RE.test(base)) {
    throw createTypeError('ERR_INVALID_ARG_VALUE', `Expected option base to be ':'-separated segments of [A-Za-z0-9_-] but received ${describe(base)}`)
  }
}
