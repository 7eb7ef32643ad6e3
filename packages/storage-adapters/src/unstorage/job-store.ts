/**
 * A job store on unstorage: ONE implementation over any unstorage driver (memory, fs, Redis, …),
 * so every backend behaves the same and passes the job-store suite of `@litho/testing`.
 *
 * Key layout (`base` defaults to `litho:jobs`; ids are `[A-Za-z0-9_-]`, so they never contain
 * the `:` separator):
 * - `<base>:<id>` → the record, as JSON (only the fields of the port, in a fixed order).
 * - `<base>-index:all:<ownerId>:<createdAt>_<id>` → `1`, one index entry per job, and
 *   `<base>-index:hooks:<ownerId>:<createdAt>_<id>` for a job created with a webhook; `createdAt`
 *   as 15 digits of epoch milliseconds, so the key alone orders the list (newest first) and a page
 *   reads only its own records. Beside `<base>`, not under it: a job id is any `[A-Za-z0-9_-]`
 *   and must not collide with a segment of the index. Written after the record (an entry whose
 *   record is missing is skipped); `listByOwner` removes the entries past the newest
 *   {@link MAX_LISTED_JOBS} of an owner, so an owner's index stays bounded (the records stay,
 *   readable by id). Jobs stored before the index existed are not listed.
 *
 * One key per job: `create` and `update` write it whole, so a read sees the old or the new
 * version, never a mix. Conflicts of id are detected on one instance (in-process, even for
 * concurrent calls), not across instances sharing a backend (the port allows this: job ids are
 * random). Writes to one id are serialized per instance; across instances the last write wins.
 *
 * @module unstorage/job-store
 */
import type { JobRecord, JobStatus, JobStore } from '@litho/core/contracts'
import type { Storage } from 'unstorage'
import { createLock } from '../kit/locks.js'
import { ID_RE, readUnstorageOptions, storeKit, type StoreKit } from '../kit/store-base.js'
import { describe } from '../kit/validate.js'

/** Options of {@link unstorageJobStore}. */
export interface UnstorageJobStoreOptions {
  /** The unstorage instance to keep jobs in (**required**). The store never disposes it. */
  storage: Storage
  /** Prefix of every key, `:`-separated segments of `[A-Za-z0-9_-]`. @default 'litho:jobs' */
  base?: string
}



/** The errors and checks of this store, shared with its memory, fs and Redis factories. */
export const kit: StoreKit = storeKit({ label: 'job-store', adapter: 'unstorage-job-store', defaultBase: 'litho:jobs' })
/** Every method of the port: the Redis store forwards each to the store it loads. */
export const METHODS = ['create', 'get', 'update', 'listByOwner'] as const
/**
 * The port's `MAX_LISTED_JOBS` (a test holds them equal): not imported, since the contracts entry
 * loads zod and the stores must not.
 */
export const MAX_LISTED_JOBS = 1000
/** The largest page of `listByOwner`: one call reads at most this many records. */
const MAX_PAGE = 100
/** Digits of the epoch milliseconds in an index key: enough for any year the store accepts. */
const TIME_DIGITS = 15
const STATUSES = ['queued', 'processing', 'succeeded', 'failed'] as const satisfies readonly JobStatus[]
const WEBHOOK_STATES = ['pending', 'delivered', 'failed'] as const
// Fails to compile when `JobStatus` gains a status that STATUSES lacks.
const statusesAreComplete: Exclude<JobStatus, (typeof STATUSES)[number]> extends never ? true : false = true
void statusesAreComplete
/** Error codes, messages and webhook URLs are labels, not documents. */
const MAX_CODE_LENGTH = 100
const MAX_MESSAGE_LENGTH = 4_000
const MAX_URL_LENGTH = 4_000
/** Webhook attempts kept on one record: a caller gives up long before. */
const MAX_WEBHOOK_ATTEMPTS = 100

/**
 * Creates a job store over an unstorage instance. Options are checked now; the storage is first
 * touched by the first call.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a missing storage or a bad `base`.
 * @example
 * import { createStorage } from 'unstorage'
 * import redisDriver from 'unstorage/drivers/redis'
 *
 * const jobs = unstorageJobStore({ storage: createStorage({ driver: redisDriver({ url: process.env.REDIS_URL }) }) })
 * const job = await jobs.get('exp_3Jx9Qm2LpZ7a')
 */
export function unstorageJobStore(options: UnstorageJobStoreOptions): JobStore {
  const { storage, base } = readUnstorageOptions(kit, options)
  const recordKey = (id: string) => `${base}:${id}`
  const ownerPrefix = (ownerId: string, hooks: boolean) => `${base}-index:${hooks ? 'hooks' : 'all'}:${ownerId}:`
  const entryOf = (record: JobRecord) => `${String(Math.max(0, Date.parse(record.createdAt))).padStart(TIME_DIGITS, '0')}_${record.id}`
  /** The index keys of a record: every job, and the jobs with a webhook. */
  const indexKeys = (record: JobRecord) => [`${ownerPrefix(record.ownerId, false)}${entryOf(record)}`, ...(record.webhook ? [`${ownerPrefix(record.ownerId, true)}${entryOf(record)}`] : [])]

  const readRecord = async (id: string, operation: string): Promise<JobRecord | null> => {
    const text = kit.toText(await storage.getItemRaw(recordKey(id)), operation)
    return text === null ? null : parseRecord(text, id, operation)
  }

  // Per-instance serialization of the writes to one id, so the conflict check of create holds
  // even for concurrent calls on this instance.
  const withLock = createLock()

  return {
    name: 'unstorage',

    async create(record: JobRecord): Promise<void> {
      const text = serializeRecord(record)
      await withLock(record.id, () =>
        kit.wrapBackendErrors('create', async () => {
          // Best effort across instances (the port asks no more): checked, then written.
          if (await storage.hasItem(recordKey(record.id))) throw kit.conflictError('create', 'id')
          await storage.setItemRaw(recordKey(record.id), text)
          for (const key of indexKeys(record)) await storage.setItemRaw(key, '1')
        }),
      )
    },

    async get(id: string): Promise<JobRecord | null> {
      kit.assertId('id', id)
      return kit.wrapBackendErrors('get', () => readRecord(id, 'get'))
    },

    async update(record: JobRecord): Promise<boolean> {
      const text = serializeRecord(record)
      return withLock(record.id, () =>
        kit.wrapBackendErrors('update', async () => {
          const stored = await readRecord(record.id, 'update')
          if (stored === null) return false
          await storage.setItemRaw(recordKey(record.id), text)
          // The callers never change the owner, the creation time or whether there is a webhook; if one does, the index follows.
          const [now, before] = [indexKeys(record), indexKeys(stored)]
          if (now.join() !== before.join()) {
            for (const key of now) if (!before.includes(key)) await storage.setItemRaw(key, '1')
            for (const key of before) if (!now.includes(key)) await storage.removeItem(key)
          }
          return true
        }),
      )
    },

    async listByOwner(ownerId: string, page: { offset: number; limit: number; webhooks?: boolean }): Promise<{ items: JobRecord[]; total: number }> {
      kit.assertId('ownerId', ownerId)
      assertPage(page)
      return kit.wrapBackendErrors('listByOwner', async () => {
        const prefix = ownerPrefix(ownerId, page.webhooks === true)
        const entries = (await storage.getKeys(prefix))
          .filter((key) => key.startsWith(prefix))
          .map((key) => key.slice(prefix.length))
          .filter((entry) => entry.length > TIME_DIGITS + 1 && entry[TIME_DIGITS] === '_' && ID_RE.test(entry.slice(TIME_DIGITS + 1)))
          // Newest first: the time is fixed-width, so the key orders it; then by id.
          .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
        // Past the newest MAX_LISTED_JOBS: forgotten by the listing (the records stay).
        const stale = entries.splice(MAX_LISTED_JOBS)
        for (let start = 0; start < stale.length; start += MAX_PAGE) await Promise.all(stale.slice(start, start + MAX_PAGE).map((entry) => storage.removeItem(`${prefix}${entry}`)))
        const slice = entries.slice(page.offset, page.offset + page.limit)
        const records = await Promise.all(slice.map((entry) => readRecord(entry.slice(TIME_DIGITS + 1), 'listByOwner')))
        // An entry whose record is missing (a crash between the two writes) is skipped.
        return { items: records.filter((r): r is JobRecord => r !== null && r.ownerId === ownerId && (page.webhooks !== true || r.webhook !== undefined)), total: entries.length }
      })
    },
  }
}

function assertPage(page: unknown): asserts page is { offset: number; limit: number; webhooks?: boolean } {
  kit.assertObject('page', page)
  const { offset, limit, webhooks } = page
  if (webhooks !== undefined && typeof webhooks !== 'boolean') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected page.webhooks to be a boolean but received ${describe(webhooks)}`)
  for (const [field, value, min, max] of [['offset', offset, 0, Number.MAX_SAFE_INTEGER], ['limit', limit, 1, MAX_PAGE]] as const) {
    if (typeof value !== 'number') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected page.${field} to be a number but received ${describe(value)}`)
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      const range = field === 'limit' ? `from 1 to ${MAX_PAGE}` : '≥ 0'
      throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected page.${field} to be a whole number ${range} but received ${describe(value)}`)
    }
  }
}




// --- internal helpers ---

/** Parses a stored record; anything but a record of `id` is corrupt data, never returned. */
function parseRecord(text: string, id: string, operation: string): JobRecord {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw kit.storageError(operation, `Expected the record of ${id} to be JSON but found ${describe(text)} that are not`)
  }
  const record = value as Partial<JobRecord> | null
  if (
    typeof record !== 'object' ||
    record === null ||
    Array.isArray(record) ||
    record.id !== id ||
    typeof record.ownerId !== 'string' ||
    typeof record.designId !== 'string' ||
    !(STATUSES as readonly unknown[]).includes(record.status) ||
    typeof record.attempts !== 'number' ||
    typeof record.request !== 'object' ||
    record.request === null
  ) {
    throw kit.storageError(operation, `Expected the record of ${id} to be a job record but found ${describe(value)}`)
  }
  return record as JobRecord
}

/** Validates a record and returns its JSON (only the fields of the port, in a fixed order, optional ones when given). */
function serializeRecord(record: unknown): string {
  kit.assertObject('record', record)
  const { id, ownerId, designId, status, request, attempts, createdAt, updatedAt, startedAt, finishedAt, result, error, webhook } = record
  kit.assertId('id', id)
  kit.assertId('ownerId', ownerId)
  kit.assertId('designId', designId)
  assertOneOf('status', status, STATUSES)
  assertJsonObject('request', request)
  assertCount('attempts', attempts)
  kit.assertTimestamp('createdAt', createdAt)
  kit.assertTimestamp('updatedAt', updatedAt)
  if (startedAt !== undefined) kit.assertTimestamp('startedAt', startedAt)
  if (finishedAt !== undefined) kit.assertTimestamp('finishedAt', finishedAt)
  if (result !== undefined) assertJsonObject('result', result)
  if (error !== undefined) assertError(error)
  const stored: Record<string, unknown> = { id, ownerId, designId, status, request, attempts, createdAt, updatedAt }
  if (startedAt !== undefined) stored.startedAt = startedAt
  if (finishedAt !== undefined) stored.finishedAt = finishedAt
  if (result !== undefined) stored.result = result
  if (error !== undefined) stored.error = { code: error.code, message: error.message }
  if (webhook !== undefined) stored.webhook = readWebhook(webhook)
  try {
    return JSON.stringify(stored)
  } catch {
    // A cycle, or a BigInt deep inside.
    throw kit.typeError('ERR_INVALID_ARG_VALUE', 'Expected request and result to be JSON but received a value JSON.stringify rejects')
  }
}

function assertOneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): asserts value is T {
  if (typeof value !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be a string but received ${describe(value)}`)
  if (!(allowed as readonly string[]).includes(value)) {
    throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be one of ${allowed.join(', ')} but received another string`)
  }
}

/** A plain JSON object (not an array, not null); its content is checked by JSON.stringify. */
function assertJsonObject(field: string, value: unknown): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be an object but received ${describe(value)}`)
  }
}

function assertCount(field: string, value: unknown): asserts value is number {
  if (typeof value !== 'number') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be a number but received ${describe(value)}`)
  if (!Number.isSafeInteger(value) || value < 0) throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be a whole number ≥ 0 but received ${describe(value)}`)
}

function assertText(field: string, value: unknown, max: number, allowEmpty = false): asserts value is string {
  if (typeof value !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be a string but received ${describe(value)}`)
  if ((!allowEmpty && value === '') || value.length > max) {
    throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected ${field} to be ${allowEmpty ? 0 : 1} to ${max} characters but received ${describe(value)}`)
  }
}

function assertError(value: unknown): asserts value is { code: string; message: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected error to be an object but received ${describe(value)}`)
  }
  const { code, message } = value as Record<string, unknown>
  assertText('error.code', code, MAX_CODE_LENGTH)
  assertText('error.message', message, MAX_MESSAGE_LENGTH, true)
}

/** Validates the webhook and returns it with only the fields of the port, in a fixed order. */
function readWebhook(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected webhook to be an object but received ${describe(value)}`)
  }
  const { url, state, attempts, nextAttemptAt } = value as Record<string, unknown>
  assertText('webhook.url', url, MAX_URL_LENGTH)
  assertOneOf('webhook.state', state, WEBHOOK_STATES)
  if (!Array.isArray(attempts)) throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected webhook.attempts to be an array but received ${describe(attempts)}`)
  if (attempts.length > MAX_WEBHOOK_ATTEMPTS) {
    throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected webhook.attempts to hold at most ${MAX_WEBHOOK_ATTEMPTS} attempts but received ${attempts.length}`)
  }
  const stored: Record<string, unknown> = {
    url,
    state,
    attempts: attempts.map((attempt: unknown, index) => {
      const field = `webhook.attempts[${index}]`
      if (typeof attempt !== 'object' || attempt === null || Array.isArray(attempt)) {
        throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected ${field} to be an object but received ${describe(attempt)}`)
      }
      const { at, status, error } = attempt as Record<string, unknown>
      kit.assertTimestamp(`${field}.at`, at)
      const entry: Record<string, unknown> = { at }
      if (status !== undefined) {
        if (typeof status !== 'number') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected ${field}.status to be a number but received ${describe(status)}`)
        if (!Number.isInteger(status) || status < 100 || status > 599) {
          throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected ${field}.status to be an HTTP status (100 to 599) but received ${describe(status)}`)
        }
        entry.status = status
      }
      if (error !== undefined) {
        assertText(`${field}.error`, error, MAX_MESSAGE_LENGTH)
        entry.error = error
      }
      return entry
    }),
  }
  if (nextAttemptAt !== undefined) {
    kit.assertTimestamp('webhook.nextAttemptAt', nextAttemptAt)
    stored.nextAttemptAt = nextAttemptAt
  }
  return stored
}
