/**
 * A read cache for small files that another process may rewrite: a file's content is kept with
 * the identity of the file it came from (inode, size, modification and change times, from one
 * `stat(2)`), and a read that finds the same identity returns the kept content without opening
 * the file. Every write through the atomic fs driver renames a new file over the old one, so a
 * rewrite, by this process or another (the CLI beside `litho serve`), gets a new inode and new
 * times: it is seen on the very next read, as before. What a hit saves is `open`, `fstat`,
 * `read` and `close` (four trips to the thread pool become one) and, for a design embedding a
 * photo, reading and comparing 500 KB on every render.
 *
 * The one change it cannot see: a write *in place* (not through this driver) that keeps the
 * size, within one tick of the file system's clock (a few ms) of the previous change. Every
 * writer of Litho's files renames a new file into place.
 *
 * Content is handed out shared: strings are immutable, and the stores only decode the bytes
 * they read (never change them). Bounded in bytes, least recently used dropped first; files
 * larger than a quarter of the bound are read every time. Internal: not exported.
 *
 * @module kit/stat-read-cache
 */
import { readFileOrNull, statOrNull } from './fs-calls.js'

/** See {@link createStatReadCache}. */
export interface StatReadCache {
  /** The file's bytes (or text with `'utf8'`), or null when it does not exist or is a directory. */
  read(path: string, encoding?: 'utf8'): Promise<Buffer | string | null>
  /** Forgets `path` (this process wrote or removed it). */
  forget(path: string): void
  /** Forgets everything. */
  clear(): void
}

interface Entry {
  identity: string
  value: Buffer | string
  size: number
}

/** Creates a {@link StatReadCache} holding at most `maxBytes` of content. */
export function createStatReadCache(maxBytes: number): StatReadCache {
  const entries = new Map<string, Entry>()
  let total = 0

  const drop = (key: string): void => {
    const entry = entries.get(key)
    if (entry === undefined) return
    entries.delete(key)
    total -= entry.size
  }
  const forget = (path: string): void => {
    drop(`b\0${path}`)
    drop(`s\0${path}`)
  }

  return {
    async read(path, encoding) {
      const key = `${encoding === undefined ? 'b' : 's'}\0${path}`
      const stats = await statOrNull(path)
      if (stats === null || !stats.isFile()) {
        forget(path)
        return null
      }
      const identity = `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`
      const entry = entries.get(key)
      if (entry !== undefined && entry.identity === identity) {
        entries.delete(key)
        entries.set(key, entry)
        return entry.value
      }
      drop(key)
      const value = encoding === undefined ? await readFileOrNull(path) : await readFileOrNull(path, encoding)
      if (value === null) return null
      const size = typeof value === 'string' ? value.length * 2 : value.byteLength
      // Kept only when the file was not rewritten while it was read: its identity still matches.
      if (size <= maxBytes / 4 && BigInt(typeof value === 'string' ? Buffer.byteLength(value) : value.byteLength) === stats.size) {
        const after = await statOrNull(path)
        if (after !== null && `${after.dev}:${after.ino}:${after.size}:${after.mtimeNs}:${after.ctimeNs}` === identity) {
          entries.set(key, { identity, value, size })
          total += size
          for (const [oldest] of entries) {
            if (total <= maxBytes) break
            drop(oldest)
          }
        }
      }
      return value
    },
    forget,
    clear() {
      entries.clear()
      total = 0
    },
  }
}
