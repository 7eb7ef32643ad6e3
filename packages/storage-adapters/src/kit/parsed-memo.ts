/**
 * A bounded memo of parsed JSON records by the exact bytes they were parsed from. A store still
 * reads its backend on every call (a write by anyone, another process included, is seen on the
 * very next read); what it skips, when the bytes read are the bytes parsed last time, is decoding
 * and `JSON.parse` of a large record (a design embedding a 500 KB photo costs about 1 ms to
 * decode and parse; comparing its bytes, about 0.01 ms). Every hit returns a fresh copy of the
 * parsed value (objects and arrays copied, strings shared: they are immutable), so a caller that
 * changes what it received never changes what the next caller gets. Internal: not exported.
 *
 * @module kit/parsed-memo
 */

/** Options of {@link createParsedMemo}. */
export interface ParsedMemoOptions {
  /** Records smaller than this are not kept: parsing them costs less than keeping them. @default 16384 */
  minBytes?: number
  /** The memo's bound: the sum of the raw sizes it keeps (least recently used dropped first). @default 32 MiB */
  maxBytes?: number
}

/** See {@link createParsedMemo}. */
export interface ParsedMemo<T> {
  /**
   * The value parsed from `raw` under `key`: a copy of the kept one when `raw` is byte for byte
   * what was parsed last time, else `parse(raw)` (kept when large enough). `raw` is the backend's
   * value: a string (memory, Redis) or bytes (fs).
   */
  read(key: string, raw: string | Uint8Array, parse: (raw: string | Uint8Array) => T): T
  /** Forgets `key` (its record was deleted or could not be read). */
  forget(key: string): void
}

/** Creates a {@link ParsedMemo}. */
export function createParsedMemo<T>(options: ParsedMemoOptions = {}): ParsedMemo<T> {
  const minBytes = options.minBytes ?? 16_384
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024
  const entries = new Map<string, { raw: string | Uint8Array; value: T; size: number }>()
  let total = 0

  const forget = (key: string): void => {
    const entry = entries.get(key)
    if (entry === undefined) return
    entries.delete(key)
    total -= entry.size
  }

  return {
    read(key, raw, parse) {
      const entry = entries.get(key)
      if (entry !== undefined && sameBytes(entry.raw, raw)) {
        // Most recently used last: the Map keeps insertion order.
        entries.delete(key)
        entries.set(key, entry)
        return copyJson(entry.value)
      }
      forget(key)
      const value = parse(raw)
      const size = raw.length
      if (size >= minBytes && size <= maxBytes) {
        // A copy is kept, the parsed value handed out: the caller may change it freely.
        // The raw value is kept as read: stores decode what they read and never change it.
        entries.set(key, { raw, value: copyJson(value), size })
        total += size
        for (const [oldest] of entries) {
          if (total <= maxBytes) break
          forget(oldest)
        }
      }
      return value
    },
    forget,
  }
}

function sameBytes(a: string | Uint8Array, b: string | Uint8Array): boolean {
  // The fs stores hand out the same Buffer while a file is unchanged (kit/stat-read-cache).
  if (a === b) return true
  if (typeof a === 'string' || typeof b === 'string') return a === b
  return a.byteLength === b.byteLength && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b)
}

/** A deep copy of a value `JSON.parse` returned: objects and arrays copied, primitives (strings too) shared. */
export function copyJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(copyJson) as T
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const member = copyJson((value as Record<string, unknown>)[key])
    // An own "__proto__" member (JSON.parse makes one) stays a member, never the prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true })
    else copy[key] = member
  }
  return copy as T
}
