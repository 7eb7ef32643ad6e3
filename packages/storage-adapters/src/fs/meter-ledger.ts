/**
 * The append-only files of the fs meter (`fs/meter.ts`): a window's ledger and an hour's log.
 * Internal: not exported from the package.
 *
 * A consume used to rewrite three files (the counter, the hour's count, the id's file), each a
 * temporary file renamed into place: about 20 trips to libuv's thread pool, three file creations
 * and three renames per render. Now it appends one line to the window's ledger (the units and
 * the id at once, so a granted unit is always refundable) and one to the hour's log: no file is
 * created past the first consume of a window or an hour, nothing is renamed.
 *
 * A ledger's sum is kept in memory with the identity of the file it was read from (device,
 * inode, birth time) and how far it was read. A consume `stat`s the ledger: the same size, the
 * sum is current; a larger one, only the new lines are read (another process, the CLI beside
 * `litho serve`, appended them); another file, it is read again. Appends never lose a count,
 * even across processes (`O_APPEND` writes of one line are not interleaved on a local file
 * system), where rewriting a counter could.
 *
 * A line is read only once it ends in `\n`: a line being appended by another process is seen
 * on the next read, whole.
 *
 * @module fs/meter-ledger
 */
import { appendFile, close, fstat, open, read, write, type BigIntStats } from 'node:fs'
import { creatingDir, statOrNull } from '../kit/fs-calls.js'
import { parseHourIso } from './meter-layout.js'

/** The first instant of an hour as a ledger line writes it, or `-` for units that count in no hour (written before the history existed). */
export type LedgerHour = number | null

/** One granted consumption or refund of a ledger. */
export interface LedgerEntry {
  sign: '+' | '-'
  amount: number
  hour: LedgerHour
  id: string
}

/** A ledger line: `+2 2026-11-23T14:00:00.000Z render-1` (granted) or `-2 … render-1` (refunded). */
export function ledgerLine(entry: LedgerEntry): string {
  return `${entry.sign}${entry.amount} ${entry.hour === null ? '-' : new Date(entry.hour).toISOString()} ${entry.id}\n`
}

/** A ledger line, parsed; anchored, no nested quantifiers. */
const LINE_RE = /^([+-])(0|[1-9][0-9]{0,15}) (\S{1,40}) ([A-Za-z0-9_.:-]{1,200})$/
/** An hour log's line: a signed whole number. */
const DELTA_RE = /^[+-](0|[1-9][0-9]{0,15})$/

/** Thrown by the parsers; the meter wraps it with the path and the operation. */
export class LedgerFormatError extends Error {}

/**
 * Parses the complete lines of `text` (up to its last `\n`), calling `each` for every entry;
 * returns the bytes parsed. `from`: where `text` starts in the file (for the error).
 */
export function parseLedger(text: string, each: (entry: LedgerEntry) => void, from = 0): number {
  const end = text.lastIndexOf('\n') + 1
  let start = 0
  while (start < end) {
    const stop = text.indexOf('\n', start)
    const match = LINE_RE.exec(text.slice(start, stop))
    const hour = match ? (match[3] === '-' ? null : parseHourIso(match[3]!)) : Number.NaN
    if (match === null || Number.isNaN(hour)) {
      throw new LedgerFormatError(`Expected a line like "+1 2026-11-23T14:00:00.000Z render-1" at byte ${from + start} but found ${stop === start ? 'an empty line' : `${stop - start} characters that are not one`}`)
    }
    each({ sign: match[1] as '+' | '-', amount: Number(match[2]), hour, id: match[4]! })
    start = stop + 1
  }
  return Buffer.byteLength(text.slice(0, end))
}

/** How much of a ledger a refund reads at a time, from its end. */
const SCAN_CHUNK_BYTES = 64 * 1024

/**
 * The last line of a ledger naming `id` (its grant, or its refund), read backwards from the end
 * in chunks: a refund usually follows its consume closely, so it reads the ledger's last lines
 * only, however long the month's ledger grew. Undefined when no line names it (or no ledger).
 */
export async function findLastEntry(path: string, id: string): Promise<LedgerEntry | undefined> {
  const stats = await statOrNull(path)
  if (stats === null) return undefined
  const suffix = ` ${id}`
  let end = Number(stats.size)
  // Bytes of a line cut by the previous chunk's start: the end of a line that starts in the next chunk read.
  let carry = ''
  let complete = false
  while (end > 0) {
    const start = Math.max(0, end - SCAN_CHUNK_BYTES)
    let text = (await readRange(path, start, end)) + carry
    if (!complete) {
      // The part after the last newline is a line still being written: not read yet.
      text = text.slice(0, text.lastIndexOf('\n') + 1)
      if (text === '' && start > 0) {
        end = start
        carry = ''
        continue
      }
      complete = true
    }
    const first = start === 0 ? 0 : text.indexOf('\n') + 1
    carry = start === 0 ? '' : text.slice(0, first)
    // From the last line back: `stop` is the index of a line's newline.
    for (let stop = text.length - 1; stop >= first; ) {
      const begin = stop === 0 ? 0 : Math.max(first, text.lastIndexOf('\n', stop - 1) + 1)
      if (text.startsWith(suffix, stop - suffix.length)) {
        let found: LedgerEntry | undefined
        parseLedger(text.slice(begin, stop + 1), (entry) => (found = entry), start + begin)
        if (found?.id === id) return found
      }
      stop = begin - 1
    }
    end = start
  }
  return undefined
}

/** The sum of an hour log's complete lines (`+1\n-1\n…`). */
export function sumHourLog(text: string): number {
  let sum = 0
  const end = text.lastIndexOf('\n')
  if (end === -1) return 0
  for (const [index, line] of text.slice(0, end).split('\n').entries()) {
    if (!DELTA_RE.test(line)) throw new LedgerFormatError(`Expected a signed whole number like +1 at line ${index + 1} but found ${line === '' ? 'an empty line' : `${line.length} characters that are not one`}`)
    sum += Number(line)
  }
  return sum
}

/** What this process knows of a ledger: bytes [0, offset) of the file `identity` sum to `sum`. */
interface Known {
  identity: string
  offset: number
  sum: number
  /** The window's counter file of an earlier version (read once per ledger file), added to `sum`. */
  base: number
}

/** A ledger's current usage, and what to pass to {@link LedgerCache.appended} after appending to it. */
export interface LedgerUsage {
  usage: number
  known: Known | undefined
}

/** See {@link createLedgerCache}. */
export interface LedgerCache {
  /** The units of a window: its earlier counter (`readBase`, read once per ledger file) plus the ledger's sum. */
  usage(path: string, readBase: () => Promise<number>): Promise<LedgerUsage>
  /** Records an append of `bytes` bytes worth `delta` units, when `after` (the file's stats right after it) shows no other append in between. */
  appended(path: string, before: LedgerUsage, bytes: number, delta: number, after: BigIntStats): void
  /** Forgets `path` (its window was swept). */
  forget(path: string): void
}

/** Files created at the same path one after the other get a new inode or, where an inode number is reused, a new birth time. */
const identityOf = (stats: BigIntStats): string => `${stats.dev}:${stats.ino}:${stats.birthtimeNs}`

/**
 * Creates the in-memory sums of ledgers, at most `maxEntries` (least recently used dropped
 * first: a dropped ledger is read whole again).
 */
export function createLedgerCache(maxEntries: number): LedgerCache {
  const entries = new Map<string, Known>()
  const remember = (path: string, known: Known): void => {
    entries.delete(path)
    entries.set(path, known)
    for (const [oldest] of entries) {
      if (entries.size <= maxEntries) break
      entries.delete(oldest)
    }
  }
  return {
    async usage(path, readBase) {
      const stats = await statOrNull(path)
      if (stats === null) {
        entries.delete(path)
        return { usage: await readBase(), known: undefined }
      }
      const identity = identityOf(stats)
      const size = Number(stats.size)
      let known = entries.get(path)
      if (known === undefined || known.identity !== identity || known.offset > size) known = { identity, offset: 0, sum: 0, base: await readBase() }
      if (known.offset < size) {
        const text = await readRange(path, known.offset, size)
        let sum = known.sum
        const parsed = parseLedger(text, (entry) => (sum += entry.sign === '+' ? entry.amount : -entry.amount), known.offset)
        known = { identity, offset: known.offset + parsed, sum, base: known.base }
      }
      remember(path, known)
      return { usage: known.base + known.sum, known }
    },
    appended(path, before, bytes, delta, after) {
      const known = before.known
      if (known !== undefined && identityOf(after) === known.identity && Number(after.size) === known.offset + bytes) {
        remember(path, { ...known, offset: known.offset + bytes, sum: known.sum + delta })
      } else if (known === undefined && Number(after.size) === bytes) {
        // The append created the file: nobody else wrote to it.
        remember(path, { identity: identityOf(after), offset: bytes, sum: delta, base: before.usage })
      } else entries.delete(path)
    },
    forget(path) {
      entries.delete(path)
    },
  }
}

/** The bytes [from, to) of a file, as text. */
function readRange(path: string, from: number, to: number): Promise<string> {
  return new Promise((resolve, reject) =>
    open(path, 'r', (error, fd) => {
      if (error) return reject(error)
      const buffer = Buffer.allocUnsafe(to - from)
      const finish = (failure: Error | null, length: number): void => close(fd, () => (failure ? reject(failure) : resolve(buffer.toString('utf8', 0, length))))
      // One read: the file is local and the range was just stat'ed (a short read only means the file was cut, and a later read sees it).
      read(fd, buffer, 0, buffer.length, from, (readError, bytesRead) => finish(readError, bytesRead))
    }),
  )
}

/**
 * Appends `text` to a file (creating it and its directory when missing) in one `write(2)` with
 * `O_APPEND`, and returns the file's stats right after, before closing it.
 */
export function appendWithStats(path: string, text: string): Promise<BigIntStats> {
  const data = Buffer.from(text)
  const attempt = (): Promise<BigIntStats> =>
    new Promise((resolve, reject) =>
      open(path, 'a', (error, fd) => {
        if (error) return reject(error)
        const finish = (failure: Error | null, stats?: BigIntStats): void => close(fd, (closeError) => (failure ?? closeError ? reject(failure ?? closeError) : resolve(stats!)))
        write(fd, data, 0, data.length, null, (writeError, written) => {
          if (writeError) return finish(writeError)
          if (written !== data.length) return finish(new Error(`Expected to append ${data.length} bytes to ${path} but wrote ${written}`))
          fstat(fd, { bigint: true }, (statError, stats) => finish(statError, stats))
        })
      }),
    )
  return creatingDir(path, attempt)
}

/** Appends `text` to a file in one `write(2)` with `O_APPEND` (open, write, close), creating it and its directory when missing. */
export function appendText(path: string, text: string): Promise<void> {
  const attempt = (): Promise<void> => new Promise((resolve, reject) => appendFile(path, text, (error) => (error ? reject(error) : resolve())))
  return creatingDir(path, attempt)
}
