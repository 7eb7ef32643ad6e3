/**
 * An asset store on unstorage (the `AssetStore` port of `@litho/core/contracts`): ONE
 * implementation over any unstorage driver (memory, fs, Redis, …), so every backend behaves the
 * same and passes the asset-store suite of `@litho/testing`. It holds records only; the bytes are
 * in the file store.
 *
 * Key layout (`base` defaults to `litho:assets`):
 * - `<base>:id:<id>` → the record, as JSON;
 * - `<base>:owner:<owner>:<id>` → the record's `createdAt`: the owner's list, read by key prefix.
 *
 * `listByOwner` reads the owner's index entries (a directory listing on fs, SCAN on Redis) and
 * then the records of one page.
 *
 * @module unstorage/asset-store
 */
import type { AssetRecord, AssetStore } from '@litho/core/contracts'
import type { Storage } from 'unstorage'
import { ID_RE, readUnstorageOptions, storeKit, TIMESTAMP_RE, type StoreKit } from '../kit/store-base.js'
import { describe } from '../kit/validate.js'

/** Options of {@link unstorageAssetStore}. */
export interface UnstorageAssetStoreOptions {
  /** The unstorage instance to keep records in (**required**). The store never disposes it. */
  storage: Storage
  /** Prefix of every key, `:`-separated segments of `[A-Za-z0-9_-]`. @default 'litho:assets' */
  base?: string
}

/** The errors and checks of this store, shared with its memory, fs and Redis factories. */
export const kit: StoreKit = storeKit({ label: 'asset-store', adapter: 'unstorage-asset-store', defaultBase: 'litho:assets' })
/** Every method of the port: the Redis store forwards each to the store it loads. */
export const METHODS = ['put', 'get', 'delete', 'listByOwner'] as const
/** Most records per page: one page is read at once. */
const MAX_LIMIT = 1000
const MAX_NAME_LENGTH = 200
const CONTENT_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml'])

/**
 * Creates an asset store over an unstorage instance. Options are checked now; the storage is
 * first touched by the first call.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a missing storage or a bad `base`.
 * @example
 * import { createStorage } from 'unstorage'
 * const assets = unstorageAssetStore({ storage: createStorage() })
 * await assets.put({ id: 'a_3Jx9', owner: 'u_1', name: 'logo.png', contentType: 'image/png', width: 512, height: 512, bytes: 48213, createdAt: new Date().toISOString() })
 */
export function unstorageAssetStore(options: UnstorageAssetStoreOptions): AssetStore {
  const { storage, base } = readUnstorageOptions(kit, options)
  const recordKey = (id: string) => `${base}:id:${id}`
  const ownerPrefix = (owner: string) => `${base}:owner:${owner}:`

  const read = async (id: string, operation: string): Promise<AssetRecord | null> => {
    const text = kit.toText(await storage.getItemRaw(recordKey(id)), operation)
    return text === null ? null : parseRecord(text, operation)
  }

  return {
    name: 'unstorage',

    async put(record: AssetRecord): Promise<void> {
      const checked = checkRecord(record)
      await kit.wrapBackendErrors('put', async () => {
        if (await storage.hasItem(recordKey(checked.id))) throw kit.conflictError('put', 'id')
        await storage.setItemRaw(recordKey(checked.id), JSON.stringify(checked))
        await storage.setItemRaw(`${ownerPrefix(checked.owner)}${checked.id}`, checked.createdAt)
      })
    },

    async get(id: string): Promise<AssetRecord | null> {
      kit.assertId('id', id)
      return kit.wrapBackendErrors('get', () => read(id, 'get'))
    },

    async delete(id: string): Promise<boolean> {
      kit.assertId('id', id)
      return kit.wrapBackendErrors('delete', async () => {
        const record = await read(id, 'delete')
        if (record === null) return false
        // The index entry first: a crash between the two leaves a record no list shows, never a listed record that is gone.
        await storage.removeItem(`${ownerPrefix(record.owner)}${id}`)
        await storage.removeItem(recordKey(id))
        return true
      })
    },

    async listByOwner(owner: string, page: { offset: number; limit: number }): Promise<{ items: AssetRecord[]; total: number }> {
      kit.assertId('owner', owner)
      kit.assertObject('page', page)
      const { offset, limit } = page
      if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) throw kit.typeError(typeof offset === 'number' ? 'ERR_INVALID_ARG_VALUE' : 'ERR_INVALID_ARG_TYPE', `Expected page.offset to be a whole number ≥ 0 but received ${describe(offset)}`)
      if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw kit.typeError(typeof limit === 'number' ? 'ERR_INVALID_ARG_VALUE' : 'ERR_INVALID_ARG_TYPE', `Expected page.limit to be a whole number from 1 to ${MAX_LIMIT} but received ${describe(limit)}`)
      const prefix = ownerPrefix(owner)
      return kit.wrapBackendErrors('listByOwner', async () => {
        const ids = (await storage.getKeys(prefix.slice(0, -1)))
          .filter((key) => key.startsWith(prefix))
          .map((key) => key.slice(prefix.length))
          .filter((id) => ID_RE.test(id))
        const entries = await Promise.all(ids.map(async (id) => ({ id, createdAt: kit.toText(await storage.getItemRaw(`${prefix}${id}`), 'listByOwner') ?? '' })))
        // Newest first, ties by id: ISO timestamps of one clock compare as text.
        entries.sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.createdAt < b.createdAt ? 1 : -1))
        const records = await Promise.all(entries.slice(offset, offset + limit).map((entry) => read(entry.id, 'listByOwner')))
        // A record deleted between the listing and the read is left out.
        return { items: records.filter((record): record is AssetRecord => record !== null), total: entries.length }
      })
    },
  }
}

/** Checks a record and keeps its fields in a fixed order (nothing else is stored). */
function checkRecord(record: unknown): AssetRecord {
  kit.assertObject('record', record)
  const { id, owner, name, contentType, width, height, bytes, createdAt } = record as Partial<AssetRecord>
  kit.assertId('record.id', id)
  kit.assertId('record.owner', owner)
  if (typeof name !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected record.name to be a string but received ${describe(name)}`)
  if (name.length < 1 || name.length > MAX_NAME_LENGTH) throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected record.name to be 1 to ${MAX_NAME_LENGTH} characters but received ${describe(name)}`)
  if (typeof contentType !== 'string' || !CONTENT_TYPES.has(contentType)) throw kit.typeError(typeof contentType === 'string' ? 'ERR_INVALID_ARG_VALUE' : 'ERR_INVALID_ARG_TYPE', `Expected record.contentType to be one of ${[...CONTENT_TYPES].join(', ')} but received ${describe(contentType)}`)
  for (const [field, value, min] of [['width', width, 1], ['height', height, 1], ['bytes', bytes, 0]] as const) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) throw kit.typeError(typeof value === 'number' ? 'ERR_INVALID_ARG_VALUE' : 'ERR_INVALID_ARG_TYPE', `Expected record.${field} to be a whole number ≥ ${min} but received ${describe(value)}`)
  }
  kit.assertTimestamp('record.createdAt', createdAt)
  return { id, owner, name, contentType, width: width!, height: height!, bytes: bytes!, createdAt }
}

/** Parses a stored record; anything else is corrupt data, never returned. */
function parseRecord(text: string, operation: string): AssetRecord {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw kit.storageError(operation, `Expected an asset record to be JSON but found ${describe(text)} that are not`)
  }
  const r = value as Partial<AssetRecord> | null
  if (
    typeof r !== 'object' || r === null ||
    typeof r.id !== 'string' || typeof r.owner !== 'string' || typeof r.name !== 'string' || typeof r.contentType !== 'string' ||
    typeof r.width !== 'number' || typeof r.height !== 'number' || typeof r.bytes !== 'number' ||
    typeof r.createdAt !== 'string' || !TIMESTAMP_RE.test(r.createdAt)
  ) {
    throw kit.storageError(operation, `Expected an asset record but found ${describe(value)}`)
  }
  return { id: r.id, owner: r.owner, name: r.name, contentType: r.contentType, width: r.width, height: r.height, bytes: r.bytes, createdAt: r.createdAt }
}
