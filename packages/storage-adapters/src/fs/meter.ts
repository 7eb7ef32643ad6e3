/**
 * A meter on the local filesystem, through the unstorage fs driver. Counts survive restarts.
 *
 * **Limits are exact within one process per directory.** Consumes and refunds are made atomic
 * by an in-process mutex per subject and window (several meters over one directory in one
 * process share it). Another process consuming in the same window at the same moment is not
 * waited for: both may grant the last unit. Its units are never lost, though (each consume
 * appends a line, see `fs/meter-ledger`) and the next consume here sees them: the CLI beside
 * `litho serve` is fine. Several servers on one directory: use the Redis meter.
 *
 * The files, under `base` (see `fs/meter-layout`): per window and subject a ledger (a line per
 * granted or refunded consumption: its units, its hour, its id) and the window's expiry; per
 * subject and UTC hour of the usage history (across windows), a log of signed counts. Files of
 * earlier versions (a counter, one file per id, an hour's count) are still read and refunded.
 * A window is swept (its directories deleted) once its expiry plus `graceSeconds` has passed:
 * by `sweep()`, and lazily by a consume at most once every {@link SWEEP_INTERVAL_MS} (in the
 * background, never failing the consume). The months of the history are kept; delete those
 * older than you need (the contract asks for 400 days).
 *
 * Consumes and refunds of one subject also share a mutex for its history (taken after the
 * window's, always in that order), since two windows of a subject may count in one hour.
 * Consumes of one window that wait for its mutex are written together (see `consumeBatched`):
 * one append to the ledger and one to each hour's log for all of them.
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
import { createMeterError, hourStart, MONTH_RE, monthStart, parseHourSlot, wrapBackendErrors } from '../kit/hours.js'
import { EXPIRES_FILE, HOURS_DIR, HOUR_LOG_SUFFIX, LEDGER_FILE, historyDirOf, parseHourIso, historyKeysOf, keysOf, knownExpiry, rememberExpiry, settleAll, type PendingConsume } from './meter-layout.js'
import { appendText, appendWithStats, createLedgerCache, findLastEntry, LedgerFormatError, ledgerLine, sumHourLog, type LedgerHour } from './meter-ledger.js'
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
 * A consume appends one line to its window's ledger (one `write(2)`, so a process killed
 * mid-write leaves the line or nothing), the window's expiry is written to a temporary file
 * renamed into place. Files are not fsync'd: a power cut may lose the latest counts, a crash of
 * the process does not.
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
    if (text === null || !Number.isNaN(parseHourIso(text))) return text === null ? null : parseHourIso(text)
    throw createMeterError(ADAPTER_NAME, operation, `Expected the start of an hour (like 2026-11-23T14:00:00.000Z) in ${pathOf(key)} but found ${text === '' ? 'an empty file' : `${text.length} characters that are not one`}. The file is corrupt; fix or delete it.`)
  }

  /** An id file of an earlier version: its amount and, from the last one, its hour (`2 2026-11-23T14:00:00.000Z`); null when there is none. */
  const readGrant = async (key: string): Promise<{ amount: number; hour?: number } | null> => {
    const text = await getItem(key, {})
    if (text === null) return null
    const space = text.indexOf(' ')
    const count = space === -1 ? text : text.slice(0, space)
    const hour = space === -1 ? undefined : parseHourIso(text.slice(space + 1))
    if (/^(0|[1-9][0-9]{0,15})$/.test(count) && Number.isSafeInteger(Number(count)) && !Number.isNaN(hour)) return { amount: Number(count), ...(hour === undefined ? {} : { hour }) }
    throw createMeterError(ADAPTER_NAME, 'refund', `Expected a whole number ≥ 0, then optionally the start of an hour, in ${pathOf(key)} but found ${text === '' ? 'an empty file' : `${text.length} characters that are not one`}. The file is corrupt; fix or delete it.`)
  }

  /** The entries of a directory; none when it does not exist. */
  const list = (key: string): Promise<string[]> =>
    readdir(pathOf(key)).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error)))

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

  /** Runs a parse of `path`; a malformed line rejects with the path, never reads as 0. */
  const parsed = async <T>(path: string, operation: string, task: () => Promise<T>): Promise<T> => {
    try {
      return await task()
    } catch (error) {
      if (!(error instanceof LedgerFormatError)) throw error
      throw createMeterError(ADAPTER_NAME, operation, `${error.message} in ${path}. The file is corrupt; fix or delete it.`)
    }
  }
  // The ledgers' sums this meter knows (see fs/meter-ledger): one per window, the least recently used dropped first.
  const ledgers = createLedgerCache(10_000)
  /** A window's units: its ledger's sum plus the counter file of an earlier version, if any. */
  const ledgerUsage = (ledger: string, keys: ReturnType<typeof keysOf>, operation: string) =>
    parsed(ledger, operation, () => ledgers.usage(ledger, async () => (await readCount(keys.usage, operation)) ?? 0))
  /** The key of an hour's log (appended to), beside the hour's count of earlier versions (read, then deleted at 0). */
  const hourLogOf = (subject: string, hour: number): string => `${historyKeysOf(subject, hour).hour}${HOUR_LOG_SUFFIX}`
  /** The units counted in an hour (its count file of earlier versions plus its log); null when it has neither. */
  const readHourCount = async (subject: string, hour: number, operation: string): Promise<number | null> => {
    const count = await readCount(historyKeysOf(subject, hour).hour, operation)
    const log = pathOf(hourLogOf(subject, hour))
    const text = await readFileOrNull(log, 'utf8')
    if (count === null && text === null) return null
    return (count ?? 0) + (text === null ? 0 : await parsed(log, operation, async () => sumHourLog(text)))
  }

  /**
   * Consumes of one window of one subject that arrive while an earlier one holds its lock are
   * written together, in arrival order: one append to each hour's log and one to the ledger
   * (every granted id's line) for the batch. Each caller still gets its own result
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
    const ledger = pathOf(keys.ledger)
    const before = await ledgerUsage(ledger, keys, 'consume')
    let usage = before.usage
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
    // The hours first, the ledger last: a crash in between leaves the history counting units
    // the quota never took, never a refundable unit missing from its hour. The ledger's one
    // append both counts the units and makes each id refundable.
    await settleAll([...perHour].map(([hour, amount]) => appendText(pathOf(hourLogOf(batch[0]!.request.subject, hour)), `+${amount}\n`)))
    const text = granted.map((item) => ledgerLine({ sign: '+', amount: item.request.amount, hour: item.hour, id: item.request.id })).join('')
    ledgers.appended(ledger, before, Buffer.byteLength(text), usage - before.usage, await appendWithStats(ledger, text))
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
          ledgers.forget(pathOf(`${key}:${LEDGER_FILE}`))
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
          const ledger = pathOf(keys.ledger)
          // The window's units first (from memory, after a stat): a corrupt ledger rejects whatever the id.
          const before = await ledgerUsage(ledger, keys, 'refund')
          // The ledger's last line naming the id: a grant is refundable, a refund was done.
          const last = await parsed(ledger, 'refund', () => findLastEntry(ledger, request.id))
          let grant: { amount: number; hour: LedgerHour } | undefined = last?.sign === '+' ? last : undefined
          // Not in the ledger: an id file of an earlier version (holding its hour, or with its hour in @hours, or none).
          const old = last === undefined ? await readGrant(keys.id) : null
          if (old !== null) grant = { amount: old.amount, hour: old.hour ?? (await readHour(keys.hour, 'refund')) }
          if (grant === undefined) return false
          const { amount, hour } = grant
          if (before.usage < amount) {
            throw createMeterError(ADAPTER_NAME, 'refund', `Expected at least ${amount} units in ${ledger} (and ${pathOf(keys.usage)}) but found ${before.usage}. The files disagree; fix them by hand.`)
          }
          // Id first: a crash after it loses this refund (and leaves the units in the history),
          // never allows a second one. The ledger's line takes the units back and marks the id.
          if (old !== null) await removeItem(keys.id, {})
          const line = ledgerLine({ sign: '-', amount, hour, id: request.id })
          ledgers.appended(ledger, before, Buffer.byteLength(line), -amount, await appendWithStats(ledger, line))
          if (old !== null && old.hour === undefined && hour !== null) await removeItem(keys.hour, {})
          if (hour === null) return true
          return withLock(`${root}\0${historyDirOf(request.subject)}`, async () => {
            const inHour = await readHourCount(request.subject, hour, 'refund')
            // The hour's files may be gone already (deleted by hand past the retention period); at 0 they are deleted.
            if (inHour === null) return true
            if (inHour > amount) await appendText(pathOf(hourLogOf(request.subject, hour)), `-${amount}\n`)
            else await settleAll([removeItem(historyKeysOf(request.subject, hour).hour, {}), removeItem(hourLogOf(request.subject, hour), {})])
            return true
          })
        }),
      )
    },

    async usage(key: MeterKey): Promise<number> {
      assertMeterKey(ADAPTER_NAME, key)
      const keys = keysOf(key)
      // No lock: a ledger is only appended to, and only its complete lines are read.
      return wrapBackendErrors(ADAPTER_NAME, 'usage', async () => (await ledgerUsage(pathOf(keys.ledger), keys, 'usage')).usage)
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
            // An hour's log (`23T14.log`) and its count of earlier versions (`23T14`); names that
            // are neither (a `.tmp` left by a killed write) are skipped.
            const slots = (await list(`${subject}:${month}`)).flatMap((name) => {
              const log = name.endsWith(HOUR_LOG_SUFFIX)
              const hour = parseHourSlot(month, log ? name.slice(0, -HOUR_LOG_SUFFIX.length) : name)
              return hour >= from && hour < to ? [{ key: `${subject}:${month}:${name}`, hour, log }] : []
            })
            return Promise.all(
              slots.map(async ({ key, hour, log }) => {
                if (!log) return [hour, (await readCount(key, 'history')) ?? 0] as const
                const text = (await getItem(key, {})) ?? ''
                return [hour, await parsed(pathOf(key), 'history', async () => sumHourLog(text))] as const
              }),
            )
          }),
        )
        const counts = new Map<number, number>()
        for (const [hour, count] of perMonth.flat()) counts.set(hour, (counts.get(hour) ?? 0) + count)
        return [...counts]
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
