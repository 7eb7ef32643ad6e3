/**
 * A meter on the local filesystem, through the unstorage fs driver. Counts survive restarts.
 *
 * **One process per directory.** Consumes and refunds are made atomic by an in-process mutex
 * per subject and window; another process writing the same directory is not seen by it and
 * would over-grant. Several meters over one directory in one process share the mutex. Run one
 * process, or use the Redis meter.
 *
 * Layout under `base` (each name percent-encoded, see `encodeSegment`):
 * `<window>/<subject>/usage` holds the units used, `<window>/<subject>/ids/<id>` the amount of
 * each granted consumption not yet refunded. Files are never expired: delete the directory of
 * a window once it is over.
 *
 * @module fs
 */
import { randomUUID } from 'node:crypto'
import { rename } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { ConsumeRequest, ConsumeResult, Meter, MeterCapabilities, MeterKey } from '@litho/core/contracts'
import fsDriver from 'unstorage/drivers/fs'
import { createLock } from './_lock.js'
import { createMeterError, wrapBackendErrors } from './_utils.js'
import { assertConsumeRequest, assertMeterKey, assertRefundRequest, createTypeError, describe } from './_validate.js'

/** Options of {@link fsMeter}. */
export interface FsMeterOptions {
  /**
   * The directory holding the counters (**required**); created on first write. One process per
   * directory: see the module comment.
   */
  base: string
}

const ADAPTER_NAME = 'fs'

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
export function fsMeter(options: FsMeterOptions): Meter {
  const base = (options as Partial<FsMeterOptions> | undefined)?.base
  if (base === undefined || base === '') {
    throw createTypeError(ADAPTER_NAME, 'ERR_MISSING_OPTION', 'Expected option base (a directory) but received none')
  }
  if (typeof base !== 'string') {
    throw createTypeError(ADAPTER_NAME, 'ERR_INVALID_ARG_TYPE', `Expected option base to be a string but received ${describe(base)}`)
  }
  // The mutex registry is keyed by the resolved path, so `./data` and `/srv/app/data` share locks.
  // (Two different paths to one directory through a symlink do not: give every meter the same path.)
  const root = resolve(base)
  const driver = fsDriver({ base: root })
  if (!driver.setItem || !driver.removeItem) throw new Error('[meter:fs] Expected the unstorage fs driver to have setItem and removeItem')
  const getItem = driver.getItem.bind(driver)
  const setItem = driver.setItem.bind(driver)
  const removeItem = driver.removeItem.bind(driver)

  /** Same mapping as the driver's own (`:` separates directories), needed for the rename. */
  const pathOf = (key: string): string => join(root, key.replace(/:/g, '/'))

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

  /** Writes through unstorage to a temporary sibling, then renames it over `key` (atomic on POSIX). */
  const writeAtomic = async (key: string, text: string): Promise<void> => {
    // Encoded names never contain '.', so a temporary name never collides with a real one.
    const temporary = `${key}.${randomUUID()}.tmp`
    await setItem(temporary, text, {})
    try {
      await rename(pathOf(temporary), pathOf(key))
    } catch (error) {
      await Promise.resolve(removeItem(temporary, {})).catch(() => {})
      throw error
    }
  }

  const capabilities: MeterCapabilities = { persistent: true, shared: false }
  return {
    name: ADAPTER_NAME,
    capabilities,

    async consume(request: ConsumeRequest): Promise<ConsumeResult> {
      assertConsumeRequest(ADAPTER_NAME, request)
      const keys = keysOf(request, request.id)
      return wrapBackendErrors(ADAPTER_NAME, 'consume', () =>
        withLock(`${root}\0${keys.window}`, async () => {
          const usage = (await readCount(keys.usage, 'consume')) ?? 0
          if (usage + request.amount > request.limit) return { granted: false, usage }
          const next = usage + request.amount
          // Counter first: a crash between the two writes leaves the unit counted but not
          // refundable (the user loses one unit), never refundable but not counted.
          await writeAtomic(keys.usage, String(next))
          await writeAtomic(keys.id, String(request.amount))
          return { granted: true, usage: next }
        }),
      )
    },

    async refund(request: MeterKey & { id: string }): Promise<boolean> {
      assertRefundRequest(ADAPTER_NAME, request)
      const keys = keysOf(request, request.id)
      return wrapBackendErrors(ADAPTER_NAME, 'refund', () =>
        withLock(`${root}\0${keys.window}`, async () => {
          const amount = await readCount(keys.id, 'refund')
          if (amount === null) return false
          const usage = (await readCount(keys.usage, 'refund')) ?? 0
          if (usage < amount) {
            throw createMeterError(ADAPTER_NAME, 'refund', `Expected at least ${amount} units in ${pathOf(keys.usage)} but found ${usage}. The files disagree; fix them by hand.`)
          }
          // Id first: a crash between the two steps loses this refund, never allows a second one.
          await removeItem(keys.id, {})
          await writeAtomic(keys.usage, String(usage - amount))
          return true
        }),
      )
    },

    async usage(key: MeterKey): Promise<number> {
      assertMeterKey(ADAPTER_NAME, key)
      // No lock: files are replaced by rename, so a read sees a whole old or new value.
      return wrapBackendErrors(ADAPTER_NAME, 'usage', async () => (await readCount(keysOf(key).usage, 'usage')) ?? 0)
    },

    async dispose(): Promise<void> {
      await driver.dispose?.()
    },
  }
}

// --- internal helpers ---

/** The unstorage keys of one window of one subject (`:` is the driver's directory separator). */
function keysOf(key: MeterKey, id = ''): { window: string; usage: string; id: string } {
  const window = `${encodeSegment(key.window)}:${encodeSegment(key.subject)}`
  return { window, usage: `${window}:usage`, id: `${window}:ids:${encodeSegment(id)}` }
}

/**
 * Percent-encodes every character but `[a-z0-9_-]` (lowercase hex). The contract's alphabet
 * allows `:` (a separator for unstorage), `.` (`..` would climb out of `base`, a leading `.`
 * hides the file) and capitals (`User` and `user` are one file on macOS and Windows).
 */
function encodeSegment(value: string): string {
  return value.replace(/[^a-z0-9_-]/g, (char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`)
}

/**
 * The per-window mutex: a promise chain per key. The registry lives on `globalThis` under a
 * `Symbol.for` key so that two copies of this package in one process still share it.
 */
const kLocks = Symbol.for('litho.storage-adapters.fs-meter.locks')
const withLock = createLock(((globalThis as Record<symbol, unknown>)[kLocks] ??= new Map()) as Map<string, Promise<void>>)
