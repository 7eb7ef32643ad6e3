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
 * @module unstorage/design-store
 */
import type { DesignRecord, DesignStore, DesignSummary } from '@litho/core/contracts'
import type { Storage } from 'unstorage'
import { createLock } from '../kit/locks.js'
import { createParsedMemo } from '../kit/parsed-memo.js'
import { ID_RE, readUnstorageOptions, storeKit, type StoreKit } from '../kit/store-base.js'
import { describe } from '../kit/validate.js'

/** Options of {@link unstorageDesignStore}. */
export interface UnstorageDesignStoreOptions {
  /** The unstorage instance to keep designs in (**required**). The store never disposes it. */
  storage: Storage
  /** Prefix of every key, `:`-separated segments of `[A-Za-z0-9_-]`. @default 'litho:designs' */
  base?: string
}



/** The errors and checks of this store, shared with its memory, fs and Redis factories. */
export const kit: StoreKit = storeKit({ label: 'design-store', adapter: 'unstorage-design-store', defaultBase: 'litho:designs' })
const RENDER_CODE_RE = /^[A-Za-z0-9_-]{16,64}$/
/** The largest page: the port's bound, so one list call reads at most this many records. */
const MAX_LIMIT = 100
/**
 * Backend calls issued at once by a list: an owner with thousands of designs must not open
 * thousands of files (EMFILE) or queue thousands of Redis commands in one burst.
 */
const BATCH_SIZE = 100
/** Every method of the port: the Redis store forwards each to the store it loads. */
export const METHODS = ['create', 'get', 'getByRenderCode', 'update', 'delete', 'listByOwner'] as const

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
  const { storage, base } = readUnstorageOptions(kit, options)

  const recordKey = (id: string) => `${base}:d:${id}`
  const codeKey = (renderCode: string) => `${base}:code:${renderCode}`
  const ownerPrefix = (ownerId: string) => `${base}:owner:${ownerId}:`
  const indexKey = (ownerId: string, id: string) => `${ownerPrefix(ownerId)}${id}`

  // Records are read on every call; a large one whose bytes did not change is not parsed again
  // (a design embedding a photo: kit/parsed-memo).
  const parsed = createParsedMemo<DesignRecord>()

  /** Reads and parses a record; null when missing. Corrupt data rejects, never returns. */
  const readRecord = async (id: string, operation: string): Promise<DesignRecord | null> => {
    const raw = await storage.getItemRaw(recordKey(id))
    if (typeof raw !== 'string' && !(raw instanceof Uint8Array)) {
      parsed.forget(id)
      if (kit.toText(raw, 'read') === null) return null
    }
    return parsed.read(id, raw as string | Uint8Array, (value) => parseRecord(kit.toText(value, 'read') as string, id, operation))
  }

  /** The id a render code points to, or null (missing, or a dangling entry). */
  const readCode = async (renderCode: string, operation: string): Promise<string | null> => {
    const id = kit.toText(await storage.getItemRaw(codeKey(renderCode)), 'read')
    if (id === null) return null
    if (!ID_RE.test(id)) throw kit.storageError(operation, `Expected an id under a render code key but found ${describe(id)}`)
    return id
  }

  // Per-instance serialization of the writes to one id, and the render codes being created, so
  // that the conflict checks hold even for concurrent calls on this instance.
  const withLock = createLock()
  const pendingCodes = new Set<string>()

  return {
    name: 'unstorage',

    async create(record: DesignRecord): Promise<void> {
      const text = serializeRecord(record)
      const { id, ownerId, renderCode, updatedAt } = record
      if (pendingCodes.has(renderCode)) throw kit.conflictError('create', 'renderCode')
      pendingCodes.add(renderCode)
      try {
        await withLock(id, () =>
          kit.wrapBackendErrors('create', async () => {
            // Best effort (the port asks no more): checked, then written, not atomically.
            if (await storage.hasItem(recordKey(id))) throw kit.conflictError('create', 'id')
            const owner = await readCode(renderCode, 'create')
            if (owner !== null && (await readRecord(owner, 'create'))?.renderCode === renderCode) throw kit.conflictError('create', 'renderCode')
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
      kit.assertId('id', id)
      return kit.wrapBackendErrors('get', () => readRecord(id, 'get'))
    },

    async getByRenderCode(renderCode: string): Promise<DesignRecord | null> {
      assertRenderCode(renderCode)
      return kit.wrapBackendErrors('getByRenderCode', async () => {
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
        kit.wrapBackendErrors('update', async () => {
          const stored = await readRecord(record.id, 'update')
          if (stored === null) return false
          for (const field of ['ownerId', 'renderCode', 'createdAt'] as const) {
            if (record[field] !== stored[field]) {
              throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be the stored one (it never changes) but received a different value`)
            }
          }
          await storage.setItemRaw(recordKey(record.id), text)
          await storage.setItemRaw(indexKey(record.ownerId, record.id), JSON.stringify({ updatedAt: record.updatedAt }))
          return true
        }),
      )
    },

    async delete(id: string): Promise<boolean> {
      kit.assertId('id', id)
      return withLock(id, () =>
        kit.wrapBackendErrors('delete', async () => {
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
      kit.assertId('ownerId', ownerId)
      assertPage(page)
      const { offset, limit } = page
      return kit.wrapBackendErrors('listByOwner', async () => {
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




// --- internal helpers ---

/** Parses a stored record; anything but a record of `id` is corrupt data, never returned. */
function parseRecord(text: string, id: string, operation: string): DesignRecord {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw kit.storageError(operation, `Expected the record of ${id} to be JSON but found ${describe(text)} that are not`)
  }
  const record = value as Partial<DesignRecord> | null
  if (typeof record !== 'object' || record === null || record.id !== id || typeof record.ownerId !== 'string' || typeof record.renderCode !== 'string') {
    throw kit.storageError(operation, `Expected the record of ${id} to be a design record but found ${describe(value)}`)
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
  kit.assertObject('record', record)
  const { id, ownerId, name, renderCode, design, draft, createdAt, updatedAt } = record
  kit.assertId('id', id)
  kit.assertId('ownerId', ownerId)
  assertRenderCode(renderCode)
  if (typeof name !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected name to be a string but received ${describe(name)}`)
  kit.assertTimestamp('createdAt', createdAt)
  kit.assertTimestamp('updatedAt', updatedAt)
  for (const [field, value] of [['design', design], ['draft', draft]] as const) {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
      throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be JSON or null but received ${describe(value)}`)
    }
  }
  try {
    return JSON.stringify({ id, ownerId, name, renderCode, design, draft, createdAt, updatedAt })
  } catch {
    // A cycle, or a BigInt deep inside.
    throw kit.typeError('ERR_INVALID_ARG_VALUE', 'Expected design and draft to be JSON but received a value JSON.stringify rejects')
  }
}

function assertRenderCode(value: unknown): asserts value is string {
  if (typeof value !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected renderCode to be a string but received ${describe(value)}`)
  if (!RENDER_CODE_RE.test(value)) {
    throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected renderCode to be 16 to 64 characters of [A-Za-z0-9_-] but received ${describe(value)}`)
  }
}

function assertPage(page: unknown): asserts page is { offset: number; limit: number } {
  kit.assertObject('page', page)
  const { offset, limit } = page
  for (const [field, value, min, max] of [['offset', offset, 0, Number.MAX_SAFE_INTEGER], ['limit', limit, 1, MAX_LIMIT]] as const) {
    if (typeof value !== 'number') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected page.${field} to be a number but received ${describe(value)}`)
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      const range = field === 'limit' ? `from 1 to ${MAX_LIMIT}` : '≥ 0'
      throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected page.${field} to be a whole number ${range} but received ${describe(value)}`)
    }
  }
}
