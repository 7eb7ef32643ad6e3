/**
 * A meter on the local filesystem, through the unstorage fs driver. Counts survive restarts.
 *
 * **One process per directory.** Consumes and refunds are made atomic by an in-process mutex
 * per subject and window; another process writing the same directory is not seen by it and
 * would over-grant. Several meters over one directory in one process share the mutex. Run one
 * process, or use the Redis meter.
 *
 * Layout under `base` (subjects, windows and ids percent-encoded, see `encodeSegment`):
 * - `<window>/<subject>/usage` holds the units used, `<window>/<subject>/ids/<id>` the amount of
 *   each granted consumption not yet refunded and the hour of the history it counts in (its
 *   first instant: `1 2026-11-23T14:00:00.000Z`), so a refund takes the units out of that hour;
 * - `<window>/@hours/<subject>/<id>` that hour, for the ids of earlier versions, whose id file
 *   holds the amount only (read by refunds; no longer written);
 * - `@history/<subject>/<YYYY-MM>/<DDTHH>` the net units of one UTC hour (`2026-11/23T14`),
 *   across windows. The hour's file is deleted when a refund brings it to 0.
 * - `<window>/<subject>/expires` the latest `expiresAt` (epoch ms) a consume gave the window.
 * `@` is never produced by `encodeSegment`, so `@hours` and `@history` cannot be a subject or a
 * window. A window is swept (its `<window>/<subject>` and `<window>/@hours/<subject>` directories
 * deleted) once its `expires` plus `graceSeconds` has passed: by `sweep()`, and lazily by a
 * consume at most once every {@link SWEEP_INTERVAL_MS} (in the background, never failing the
 * consume). Windows written before `expires` was recorded have none and are kept: delete them by
 * hand. The months of `@history` are kept; delete those older than you need (the contract asks
 * for 400 days).
 *
 * Consumes and refunds of one subject also share a mutex for its history (taken after the
 * window's, always in that order), since two windows of a subject may count in one hour.
 * Consumes of one window that wait for its mutex are written together (see `consumeBatched`):
 * one write of the counter and of the hour's count for all of them, then one file per id.
 *
 * @module fs/meter
 */
import { randomUUID } from 'node:crypto'
import { readdir, rm, rmdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { ConsumeRequest, ConsumeResult, HistoryRequest, Meter, MeterCapabilities, MeterKey, UsageHour } from '@litho/core/contracts'
import fsDriver from 'unstorage/drivers/fs'
import { readFileOrNull, renameFile, writeFileCreatingDir } from '../kit/fs-calls.js'
import { directoryLock } from '../kit/locks.js'
import { createMeterError, HOUR_MS, hourStart, MONTH_RE, monthStart, parseHourSlot, wrapBackendErrors } from '../kit/hours.js'
import { EXPIRES_FILE, HOURS_DIR, historyDirOf, historyKeysOf, keysOf, knownExpiry, rememberExpiry, settleAll, type PendingConsume } from './meter-layout.js'
import { assertConsumeRequest, assertHistoryRequest, assertMeterKey, assertRefundRequest, assertWholeNumber, createTypeError, describe } from '../kit/validate.js'

/** Options of {@link fsMeter}. */
export interface FsMeterOptions {
  /**
   * The directory holding the counters (**required**); created on first write. One process per
   * directory: see the module comment.
   */
  base: string
  /**
   * Seconds a window is kept after its `expiresAt`, so a refund of a job that straddled the end
   * of the window still finds its id. The same default as the memory and Redis meters.
   * @default 604800 (7 days)
   */
  graceSeconds?: number
}

/** A meter in files; `sweep` deletes the windows that are over (see the module comment). */
export type FsMeter = Meter & { sweep(now?: Date): Promise<number> }

const ADAPTER_NAME = 'fs'
/** 7 days: see {@link FsMeterOptions.graceSeconds}. */
const DEFAULT_GRACE_SECONDS = 7 * 24 * 60 * 60
/** Consumes start a background sweep at most this often: rate windows of a minute pile up fast. */
const SWEEP_INTERVAL_MS = 10 * 60_000

/**
 * Creates a meter that keeps its counts in files under `options.base`.
 *
 * Writes go to a temporary file that is then renamed over the old one, so a process killed
 * mid-write leaves the old or the new content, never half of it. Files are not fsync'd: a
 * power cut may lose the latest counts, a crash of the process does not.
 *
 * @throws {TypeError} `ERR_MISSING_OPTION` or `ERR_INVALID_ARG_TYPE` when `base` is missing or not a string.
 * @example
 * const meter = fsMeter({ base: '.data/meter' })
 * await meter.consume({ subject: 'user-1', window: '2026-11', amount: 1, limit: 100, id: 'render-1', expiresAt: new Date('2026-12-01') })
 */
export function fsMeter(options: FsMeterOptions): FsMeter {
  const base = (options as Partial<FsMeterOptions> | undefined)?.base
  if (base === undefined || base === '') {
    throw createTypeError(ADAPTER_NAME, 'ERR_MISSING_OPTION', 'Expected option base (a directory) but received none')
  }
  if (typeof base !== 'string') {
    throw createTypeError(ADAPTER_NAME, 'ERR_INVALID_ARG_TYPE', `Expected option base to be a string but received ${describe(base)}`)
  }
  const graceSeconds = options.graceSeconds ?? DEFAULT_GRACE_SECONDS
  assertWholeNumber(ADAPTER_NAME, 'graceSeconds', graceSeconds, 0)
  const graceMs = graceSeconds * 1000
  // The mutex registry is keyed by the resolved path, so `./data` and `/srv/app/data` share locks.
  // (Two different paths to one directory through a symlink do not: give every meter the same path.)
  const root = resolve(base)
  const driver = fsDriver({ base: root })
  if (!driver.setItem || !driver.removeItem) throw new Error('[meter:fs] Expected the unstorage fs driver to have setItem and removeItem')
  const removeItem = driver.removeItem.bind(driver)

  /** Same mapping as the driver's own (`:` separates directories), needed for the rename. */
  const pathOf = (key: string): string => join(root, key.replace(/:/g, '/'))
  // Reads and writes of the counters go through the callback fs API (kit/fs-calls): the same
  // files and system calls as the driver's, at about half its CPU per call. Encoded keys never
  // contain '.', so they never need the driver's check against '..' segments.
  const getItem = (key: string, _options: object): Promise<string | null> => readFileOrNull(pathOf(key), 'utf8')

  /** Reads a whole-number file; null when it does not exist. Anything else in it is an error, never 0. */
  const readCount = async (key: string, operation: string): Promise<number | null> => {
    const text = await getItem(key, {})
    if (text === null || text === undefined) return null
    if (typeof text === 'string' && /^(0|[1-9][0-9]{0,15})$/.test(text)) {
      const value = Number(text)
      if (Number.isSafeInteger(value)) return value
    }
    const found = typeof text === 'string' ? (text === '' ? 'an empty file' : `${text.length} characters that are not a whole number`) : describe(text)
    throw createMeterError(ADAPTER_NAME, operation, `Expected a whole number ≥ 0 in ${pathOf(key)} but found ${found}. The file is corrupt; fix or delete it.`)
  }

  /** Reads the first instant of an hour (epoch ms) from its ISO 8601 string; null when the file does not exist. */
  const readHour = async (key: string, operation: string): Promise<number | null> => {
    const text = await getItem(key, {})
    if (text === null || text === undefined) return null
    if (typeof text === 'string') {
      const ms = Date.parse(text)
      if (Number.isFinite(ms) && ms % HOUR_MS === 0 && new Date(ms).toISOString() === text) return ms
    }
    const found = typeof text === 'string' ? (text === '' ? 'an empty file' : `${text.length} characters that are not one`) : describe(text)
    throw createMeterError(ADAPTER_NAME, operation, `Expected the start of an hour (like 2026-11-23T14:00:00.000Z) in ${pathOf(key)} but found ${found}. The file is corrupt; fix or delete it.`)
  }

  /** An id file: its amount and, written by this version, its hour (`2 2026-11-23T14:00:00.000Z`); null when there is none. */
  const readGrant = async (key: string): Promise<{ amount: number; hour?: number } | null> => {
    const text = await getItem(key, {})
    if (text === null || text === undefined) return null
    const space = text.indexOf(' ')
    const count = space === -1 ? text : text.slice(0, space)
    const hour = space === -1 ? undefined : Date.parse(text.slice(space + 1))
    if (/^(0|[1-9][0-9]{0,15})$/.test(count) && Number.isSafeInteger(Number(count))) {
      if (hour === undefined) return { amount: Number(count) }
      if (Number.isFinite(hour) && hour % HOUR_MS === 0 && new Date(hour).toISOString() === text.slice(space + 1)) return { amount: Number(count), hour }
    }
    const found = text === '' ? 'an empty file' : `${text.length} characters that are not one`
    throw createMeterError(ADAPTER_NAME, 'refund', `Expected a whole number ≥ 0, then optionally the start of an hour, in ${pathOf(key)} but found ${found}. The file is corrupt; fix or delete it.`)
  }

  /** The entries of a directory; none when it does not exist. */
  const list = async (key: string): Promise<string[]> => {
    try {
      return await readdir(pathOf(key))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
  }

  /** Writes through unstorage to a temporary sibling, then renames it over `key` (atomic on POSIX). */
  const writeAtomic = async (key: string, text: string): Promise<void> => {
    // Encoded names never contain '.', so a temporary name never collides with a real one.
    const temporary = `${key}.${randomUUID()}.tmp`
    await writeFileCreatingDir(pathOf(temporary), text)
    try {
      await renameFile(pathOf(temporary), pathOf(key))
    } catch (error) {
      await Promise.resolve(removeItem(temporary, {})).catch(() => {})
      throw error
    }
  }

  /**
   * Consumes of one window of one subject that arrive while an earlier one holds its lock are
   * written together, in arrival order: one read and one write of the counter and of the hour's
   * count for the batch, then one file per granted id. Each caller still gets its own result
   * (granted or not, the usage after its own units) only once every file of the batch is
   * written, so a granted consume is as durable as before, and a batch that fails rejects every
   * consume in it.
   */
  const open = new Map<string, PendingConsume[]>()
  const consumeBatched = (request: ConsumeRequest, keys: ReturnType<typeof keysOf>, hour: number): Promise<ConsumeResult> =>
    new Promise((resolveConsume, rejectConsume) => {
      const lockKey = `${root}\0${keys.window}`
      let batch = open.get(lockKey)
      if (batch === undefined) {
        const pending: PendingConsume[] = []
        batch = pending
        open.set(lockKey, pending)
        void withLock(lockKey, () =>
          withLock(`${root}\0${historyDirOf(request.subject)}`, async () => {
            // From here on, new consumes start the next batch.
            if (open.get(lockKey) === pending) open.delete(lockKey)
            try {
              const results = await writeBatch(keys, pending)
              pending.forEach((item, index) => item.resolve(results[index]!))
            } catch (error) {
              for (const item of pending) item.reject(error)
            }
          }),
        )
      }
      batch.push({ request, id: keys.id, hour, resolve: resolveConsume, reject: rejectConsume })
    })

  /** The writes of one batch, under the window's and the subject history's locks. */
  const writeBatch = async (keys: ReturnType<typeof keysOf>, batch: PendingConsume[]): Promise<ConsumeResult[]> => {
    let usage = (await readCount(keys.usage, 'consume')) ?? 0
    const results: ConsumeResult[] = []
    const granted: PendingConsume[] = []
    const perHour = new Map<number, number>()
    for (const item of batch) {
      if (usage + item.request.amount > item.request.limit) {
        results.push({ granted: false, usage })
        continue
      }
      usage += item.request.amount
      results.push({ granted: true, usage })
      granted.push(item)
      perHour.set(item.hour, (perHour.get(item.hour) ?? 0) + item.request.amount)
    }
    if (granted.length === 0) return results
    // Every read before the first write: a corrupt file rejects and changes nothing.
    const hours = await Promise.all([...perHour].map(async ([hour, amount]) => {
      const key = historyKeysOf(batch[0]!.request.subject, hour).hour
      return { key, count: ((await readCount(key, 'consume')) ?? 0) + amount }
    }))
    // Counter first and ids last: a crash in between leaves units counted but not refundable
    // (the user loses them), never refundable but not counted. Each id's file holds its amount
    // and its hour, so every refundable id knows its hour; the hours' counts are written before.
    await writeAtomic(keys.usage, String(usage))
    await settleAll(hours.map(({ key, count }) => writeAtomic(key, String(count))))
    await settleAll(granted.map((item) => writeAtomic(item.id, `${item.request.amount} ${new Date(item.hour).toISOString()}`)))
    // The window's expiry, for the sweep: only ever moved later. What this process last wrote or
    // read is remembered, so the file is read and written only when a consume moves it.
    const expiresAt = Math.max(...granted.map((item) => item.request.expiresAt.getTime()))
    const knownKey = `${root}\0${keys.window}`
    if ((knownExpiry.get(knownKey) ?? -1) < expiresAt) {
      const stored = (await readCount(keys.expires, 'consume')) ?? -1
      if (stored < expiresAt) await writeAtomic(keys.expires, String(expiresAt))
      rememberExpiry(knownKey, Math.max(stored, expiresAt))
    }
    return results
  }

  let lastSweep = Date.now()
  /** Deletes every window whose expiry plus the grace period is before `now`; resolves with how many. */
  const sweep = async (now: Date): Promise<number> => {
    let swept = 0
    for (const window of await list('')) {
      if (window.startsWith('@') || window.includes('.')) continue
      for (const subject of await list(window)) {
        if (subject.startsWith('@') || subject.includes('.')) continue
        const key = `${window}:${subject}`
        swept += await withLock(`${root}\0${key}`, async () => {
          // Read again under the window's lock: a consume may have moved it later meanwhile.
          const expires = await readCount(`${key}:${EXPIRES_FILE}`, 'sweep')
          if (expires === null || expires + graceMs > now.getTime()) return 0
          knownExpiry.delete(`${root}\0${key}`)
          await rm(pathOf(key), { recursive: true, force: true })
          await rm(pathOf(`${window}:${HOURS_DIR}:${subject}`), { recursive: true, force: true })
          return 1
        })
      }
      // A window with no subject left goes too (best effort: a consume may have just created it).
      await rmdir(pathOf(`${window}:${HOURS_DIR}`)).catch(() => {})
      await rmdir(pathOf(window)).catch(() => {})
    }
    return swept
  }

  const capabilities: MeterCapabilities = { persistent: true, shared: false }
  return {
    name: ADAPTER_NAME,
    capabilities,

    async consume(request: ConsumeRequest): Promise<ConsumeResult> {
      assertConsumeRequest(ADAPTER_NAME, request)
      if (Date.now() - lastSweep >= SWEEP_INTERVAL_MS) {
        lastSweep = Date.now()
        // In the background: a sweep's failure is retried by the next one and never fails a consume.
        void sweep(new Date(lastSweep)).catch(() => {})
      }
      const keys = keysOf(request, request.id)
      const hour = hourStart((request.at ?? new Date()).getTime())
      return wrapBackendErrors(ADAPTER_NAME, 'consume', () => consumeBatched(request, keys, hour))
    },

    async refund(request: MeterKey & { id: string }): Promise<boolean> {
      assertRefundRequest(ADAPTER_NAME, request)
      const keys = keysOf(request, request.id)
      return wrapBackendErrors(ADAPTER_NAME, 'refund', () =>
        withLock(`${root}\0${keys.window}`, async () => {
          const grant = await readGrant(keys.id)
          if (grant === null) return false
          const { amount } = grant
          const usage = (await readCount(keys.usage, 'refund')) ?? 0
          if (usage < amount) {
            throw createMeterError(ADAPTER_NAME, 'refund', `Expected at least ${amount} units in ${pathOf(keys.usage)} but found ${usage}. The files disagree; fix them by hand.`)
          }
          // An id file of an older layout holds its amount only, its hour beside it in @hours
          // (or none, written before the history existed: its units leave no hour).
          const hour = grant.hour === undefined ? await readHour(keys.hour, 'refund') : grant.hour
          if (hour === null) {
            // Id first: a crash between the two steps loses this refund, never allows a second one.
            await removeItem(keys.id, {})
            await writeAtomic(keys.usage, String(usage - amount))
            return true
          }
          const history = historyKeysOf(request.subject, hour)
          return withLock(`${root}\0${history.subject}`, async () => {
            const inHour = await readCount(history.hour, 'refund')
            // Id first: a crash after it loses this refund (and leaves the units in the history),
            // never allows a second one. Counter and hour are independent files, written side by side.
            await removeItem(keys.id, {})
            await settleAll([
              writeAtomic(keys.usage, String(usage - amount)),
              // The hour's file may be gone already (deleted by hand past the retention period).
              inHour === null ? undefined : inHour > amount ? writeAtomic(history.hour, String(inHour - amount)) : removeItem(history.hour, {}),
            ])
            if (grant.hour === undefined) await removeItem(keys.hour, {})
            return true
          })
        }),
      )
    },

    async usage(key: MeterKey): Promise<number> {
      assertMeterKey(ADAPTER_NAME, key)
      // No lock: files are replaced by rename, so a read sees a whole old or new value.
      return wrapBackendErrors(ADAPTER_NAME, 'usage', async () => (await readCount(keysOf(key).usage, 'usage')) ?? 0)
    },

    async history(request: HistoryRequest): Promise<UsageHour[]> {
      assertHistoryRequest(ADAPTER_NAME, request)
      const from = hourStart(request.from.getTime())
      const to = request.to.getTime()
      const subject = historyDirOf(request.subject)
      // No lock, like usage: each file is replaced whole. The months in range are read at once.
      return wrapBackendErrors(ADAPTER_NAME, 'history', async () => {
        const months = (await list(subject)).filter((month) => {
          if (!MONTH_RE.test(month)) return false
          const start = parseHourSlot(month, '01T00')
          // The month's end is NaN only past the range of Date; such a month is kept, and its hours filtered.
          return start < to && !(monthStart(start, 1) <= from)
        })
        const perMonth = await Promise.all(
          months.map(async (month) => {
            const slots = (await list(`${subject}:${month}`)).filter((slot) => {
              // Names that are not hours (a `.tmp` left by a killed write) are skipped.
              const hour = parseHourSlot(month, slot)
              return hour >= from && hour < to
            })
            return Promise.all(slots.map(async (slot) => [parseHourSlot(month, slot), (await readCount(`${subject}:${month}:${slot}`, 'history')) ?? 0] as const))
          }),
        )
        return perMonth
          .flat()
          .filter(([, count]) => count > 0)
          .sort((a, b) => a[0] - b[0])
          .map(([hour, count]) => ({ hour: new Date(hour).toISOString(), count }))
      })
    },

    sweep(now?: Date): Promise<number> {
      if (now !== undefined && !(now instanceof Date && Number.isFinite(now.getTime()))) {
        return Promise.reject(createTypeError(ADAPTER_NAME, 'ERR_INVALID_ARG_TYPE', `Expected now to be a valid Date but received ${describe(now)}`))
      }
      return wrapBackendErrors(ADAPTER_NAME, 'sweep', () => sweep(now ?? new Date()))
    },

    async dispose(): Promise<void> {
      await driver.dispose?.()
    },
  }
}

/**
 * The per-window mutex of the package's one lock registry (`../kit/locks.ts`), shared by every
 * fs meter of this process; its keys start with the resolved directory.
 */
const withLock = directoryLock('fs-meter', '')
