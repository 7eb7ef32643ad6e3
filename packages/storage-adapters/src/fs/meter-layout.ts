/**
 * The files of the fs meter (`fs/meter.ts`): their keys under the meter's directory, and what
 * the meters of this process share about them. Internal: not exported from the package.
 *
 * Under the meter's directory (subjects, windows and ids percent-encoded, see `encodeSegment`):
 * - `<window>/<subject>/ledger`: a line per granted (`+2 2026-11-23T14:00:00.000Z render-1`) or
 *   refunded (`-2 … render-1`) consumption; the window's units are their sum (fs/meter-ledger);
 * - `<window>/<subject>/expires`: the latest `expiresAt` (epoch ms) a consume gave the window;
 * - `@history/<subject>/<YYYY-MM>/<DDTHH>.log`: the signed counts (`+1`, `-1`) of one UTC hour,
 *   across windows, deleted when a refund brings the hour to 0.
 * Written by earlier versions, still read (and refunded from): `<window>/<subject>/usage` (the
 * window's units before its ledger), `<window>/<subject>/ids/<id>` (an id's units, then its
 * hour), `<window>/@hours/<subject>/<id>` (an id's hour) and `@history/…/<DDTHH>` (an hour's
 * count). `@` is never produced by `encodeSegment`, so `@hours` and `@history` cannot be a
 * subject or a window.
 *
 * @module fs/meter-layout
 */
import type { ConsumeRequest, ConsumeResult, MeterKey } from '@litho/core/contracts'
import { hourSlot } from '../kit/hours.js'

/** The file of a window's expiry (no encoded subject or id is named like it: those are directories). */
export const EXPIRES_FILE = 'expires'
/** The file of a window's ledger (fs/meter-ledger): one line per granted or refunded consumption. */
export const LEDGER_FILE = 'ledger'
/** The suffix of an hour's log in the history (`23T14.log`), beside the hour's count of earlier versions (`23T14`). */
export const HOUR_LOG_SUFFIX = '.log'
/** The top directory of the usage history; `@` keeps it apart from every encoded window. */
export const HISTORY_DIR = '@history'
/** The directory, in each window, of the hours of its consumptions. */
export const HOURS_DIR = '@hours'

/** A consume waiting in a batch (see `consumeBatched`). */
export interface PendingConsume {
  request: ConsumeRequest
  /** The key of its id file. */
  id: string
  /** The first instant of the hour it is counted in. */
  hour: number
  resolve(result: ConsumeResult): void
  reject(error: unknown): void
}

/**
 * The latest expiry each window is known to have on disk (`<root>\0<window key>` → epoch ms),
 * shared by the fs meters of this process like their locks; a sweep forgets the windows it
 * deletes. Bounded: the oldest entries go first, and a window that is not known is read again.
 */
export const knownExpiry: Map<string, number> = ((globalThis as Record<symbol, unknown>)[Symbol.for('litho.storage-adapters.fs-meter.expiry')] ??= new Map()) as Map<string, number>
const KNOWN_EXPIRY_MAX = 10_000
/** Records that `key`'s window has `expiresAt` on disk (see {@link knownExpiry}). */
export function rememberExpiry(key: string, expiresAt: number): void {
  knownExpiry.delete(key)
  knownExpiry.set(key, expiresAt)
  for (const [oldest] of knownExpiry) {
    if (knownExpiry.size <= KNOWN_EXPIRY_MAX) break
    knownExpiry.delete(oldest)
  }
}

/**
 * Waits for every write to settle, then rejects with the first failure: unlike `Promise.all`,
 * no write is still running once the lock is released.
 */
export async function settleAll(writes: Array<Promise<unknown> | unknown>): Promise<void> {
  for (const result of await Promise.allSettled(writes)) if (result.status === 'rejected') throw result.reason
}

/** The first instant of an hour from its ISO 8601 string (`2026-11-23T14:00:00.000Z`); NaN when it is not one. */
export function parseHourIso(text: string): number {
  const ms = Date.parse(text)
  return Number.isFinite(ms) && ms % 3_600_000 === 0 && new Date(ms).toISOString() === text ? ms : Number.NaN
}

/** The unstorage keys of one window of one subject (`:` is the driver's directory separator). */
export function keysOf(key: MeterKey, id = ''): { window: string; usage: string; ledger: string; id: string; hour: string; expires: string } {
  const window = `${encodeSegment(key.window)}:${encodeSegment(key.subject)}`
  return {
    window,
    usage: `${window}:usage`,
    ledger: `${window}:${LEDGER_FILE}`,
    expires: `${window}:${EXPIRES_FILE}`,
    id: `${window}:ids:${encodeSegment(id)}`,
    hour: `${encodeSegment(key.window)}:${HOURS_DIR}:${encodeSegment(key.subject)}:${encodeSegment(id)}`,
  }
}

/** The unstorage key of a subject's history directory, also the name of its lock. */
export function historyDirOf(subject: string): string {
  return `${HISTORY_DIR}:${encodeSegment(subject)}`
}

/** The unstorage keys of a subject's history (see {@link historyDirOf}) and of its hour starting at `hour`. */
export function historyKeysOf(subject: string, hour: number): { subject: string; hour: string } {
  const { month, slot } = hourSlot(hour)
  const dir = historyDirOf(subject)
  return { subject: dir, hour: `${dir}:${month}:${slot}` }
}

/**
 * Percent-encodes every character but `[a-z0-9_-]` (lowercase hex). The contract's alphabet
 * allows `:` (a separator for unstorage), `.` (`..` would climb out of `base`, a leading `.`
 * hides the file) and capitals (`User` and `user` are one file on macOS and Windows).
 */
function encodeSegment(value: string): string {
  return value.replace(/[^a-z0-9_-]/g, (char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`)
}

