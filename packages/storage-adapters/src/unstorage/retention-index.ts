/**
 * A retention index on unstorage (the `RetentionIndex` port of `@litho/core/contracts`): ONE
 * implementation over any unstorage driver (memory, fs, Redis, …), so every backend behaves the
 * same and passes the retention-index suite of `@litho/testing`. With S3 for files, the index
 * lives with the other records (fs or Redis): it holds no bytes.
 *
 * Key layout (`base` defaults to `litho:retention`): `<base>:<sha256 of the file key, hex>` → the
 * record, as JSON. Hashing gives every file key a name of one length and alphabet that is safe on
 * every driver (file keys hold `/` and `.`), and fixes the order of `list`: by that name.
 *
 * `list` reads the names of every record (the drivers' `getKeys`: a directory listing on fs,
 * SCAN on Redis) and then the records of one page: meant for a periodic sweep, not a request path.
 *
 * @module unstorage/retention-index
 */
import { createHash } from 'node:crypto'
import type { RetainedFile, RetentionIndex } from '@litho/core/contracts'
import type { Storage } from 'unstorage'
import { readUnstorageOptions, storeKit, TIMESTAMP_RE, type StoreKit } from '../kit/store-base.js'
import { describe } from '../kit/validate.js'

/** Options of {@link unstorageRetentionIndex}. */
export interface UnstorageRetentionIndexOptions {
  /** The unstorage instance to keep records in (**required**). The index never disposes it. */
  storage: Storage
  /** Prefix of every key, `:`-separated segments of `[A-Za-z0-9_-]`. @default 'litho:retention' */
  base?: string
}

/** The errors and checks of this store, shared with its memory, fs and Redis factories. */
export const kit: StoreKit = storeKit({ label: 'retention-index', adapter: 'unstorage-retention-index', defaultBase: 'litho:retention' })
/** Every method of the port: the Redis store forwards each to the store it loads. */
export const METHODS = ['put', 'get', 'delete', 'list'] as const
/** Most records per page: one page is read at once. */
const MAX_LIMIT = 1000
const MAX_KEY_LENGTH = 1024
const OWNER_RE = /^[A-Za-z0-9_-]{1,64}$/
const NAME_RE = /^[a-f0-9]{64}$/

/**
 * Creates a retention index over an unstorage instance. Options are checked now; the storage is
 * first touched by the first call.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a missing storage or a bad `base`.
 * @example
 * import { createStorage } from 'unstorage'
 * import redisDriver from 'unstorage/drivers/redis'
 *
 * const index = unstorageRetentionIndex({ storage: createStorage({ driver: redisDriver({ url: process.env.REDIS_URL }) }) })
 * await index.put({ key: 'u_1/r_2.png', owner: 'u_1', bytes: 5120, delivery: 'signed', createdAt: now.toISOString(), expiresAt: later.toISOString() })
 */
export function unstorageRetentionIndex(options: UnstorageRetentionIndexOptions): RetentionIndex {
  const { storage, base } = readUnstorageOptions(kit, options)
  const prefix = `${base}:`
  const recordKey = (key: string) => `${prefix}${nameOf(key)}`

  const read = async (name: string, operation: string): Promise<RetainedFile | null> => {
    const text = kit.toText(await storage.getItemRaw(`${prefix}${name}`), operation)
    return text === null ? null : parseRecord(text, operation)
  }

  return {
    name: 'unstorage',

    async put(file: RetainedFile): Promise<void> {
      const text = serializeRecord(file)
      await kit.wrapBackendErrors('put', () => storage.setItemRaw(recordKey(file.key), text))
    },

    async get(key: string): Promise<RetainedFile | null> {
      assertKey(key)
      return kit.wrapBackendErrors('get', () => read(nameOf(key), 'get'))
    },

    async delete(key: string): Promise<boolean> {
      assertKey(key)
      return kit.wrapBackendErrors('delete', async () => {
        if (!(await storage.hasItem(recordKey(key)))) return false
        await storage.removeItem(recordKey(key))
        return true
      })
    },

    async list(options: { after?: string; limit: number }): Promise<RetainedFile[]> {
      kit.assertObject('options', options)
      const { after, limit } = options
      if (after !== undefined) assertKey(after, 'options.after')
      if (typeof limit !== 'number') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected options.limit to be a number but received ${describe(limit)}`)
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected options.limit to be a whole number from 1 to ${MAX_LIMIT} but received ${describe(limit)}`)
      const from = after === undefined ? '' : nameOf(after)
      return kit.wrapBackendErrors('list', async () => {
        const names = (await storage.getKeys(base))
          .filter((key) => key.startsWith(prefix))
          .map((key) => key.slice(prefix.length))
          .filter((name) => NAME_RE.test(name) && name > from)
          .sort()
          .slice(0, limit)
        const records = await Promise.all(names.map((name) => read(name, 'list')))
        // A record deleted between the listing and the read is left out.
        return records.filter((record): record is RetainedFile => record !== null)
      })
    },
  }
}




// --- internal helpers ---

function nameOf(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex')
}

function assertKey(key: unknown, field = 'key'): asserts key is string {
  if (typeof key !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be a string but received ${describe(key)}`)
  if (key.length < 1 || key.length > MAX_KEY_LENGTH) throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be 1 to ${MAX_KEY_LENGTH} characters but received ${describe(key)}`)
}

/** Checks a record and writes its fields in a fixed order (nothing else is stored). */
function serializeRecord(file: unknown): string {
  kit.assertObject('file', file)
  const { key, owner, bytes, delivery, createdAt, expiresAt } = file as Partial<RetainedFile>
  assertKey(key, 'file.key')
  if (typeof owner !== 'string' || !OWNER_RE.test(owner)) throw kit.typeError(typeof owner === 'string' ? 'ERR_INVALID_ARG_VALUE' : 'ERR_INVALID_ARG_TYPE', `Expected file.owner to be 1 to 64 characters of [A-Za-z0-9_-] but received ${describe(owner)}`)
  if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0) throw kit.typeError(typeof bytes === 'number' ? 'ERR_INVALID_ARG_VALUE' : 'ERR_INVALID_ARG_TYPE', `Expected file.bytes to be a whole number ≥ 0 but received ${describe(bytes)}`)
  if (delivery !== 'hosted' && delivery !== 'signed') throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected file.delivery to be "hosted" or "signed" but received ${describe(delivery)}`)
  kit.assertTimestamp('file.createdAt', createdAt)
  // null is the right type for the field (hosted files), the wrong value for a signed one.
  if (delivery === 'signed' && expiresAt === null) throw kit.typeError('ERR_INVALID_ARG_VALUE', 'Expected file.expiresAt of a signed file to be a date and time but received null')
  if (delivery === 'signed') kit.assertTimestamp('file.expiresAt', expiresAt)
  else if (expiresAt !== null) throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected file.expiresAt of a hosted file to be null but received ${describe(expiresAt)}`)
  const record: RetainedFile = { key, owner, bytes, delivery, createdAt, expiresAt: expiresAt ?? null }
  return JSON.stringify(record)
}

/** Parses a stored record; anything else is corrupt data, never returned. */
function parseRecord(text: string, operation: string): RetainedFile {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw kit.storageError(operation, `Expected a retention record to be JSON but found ${describe(text)} that are not`)
  }
  const record = value as Partial<RetainedFile> | null
  if (
    typeof record !== 'object' ||
    record === null ||
    typeof record.key !== 'string' ||
    typeof record.owner !== 'string' ||
    typeof record.bytes !== 'number' ||
    (record.delivery !== 'hosted' && record.delivery !== 'signed') ||
    typeof record.createdAt !== 'string' ||
    !TIMESTAMP_RE.test(record.createdAt) ||
    !(record.expiresAt === null || (typeof record.expiresAt === 'string' && TIMESTAMP_RE.test(record.expiresAt)))
  ) {
    throw kit.storageError(operation, `Expected a retention record but found ${describe(value)}`)
  }
  return { key: record.key, owner: record.owner, bytes: record.bytes, delivery: record.delivery, createdAt: record.createdAt, expiresAt: record.expiresAt }
}
