/**
 * Small-file reads and writes through Node's callback `fs` API rather than `fs/promises`. On a
 * request path that reads and writes a dozen small files (a render key, a design, the meter's
 * counters), the promise API's per-call `FileHandle` (open, stat, read and close, each a trip to
 * the thread pool and back through a promise) cost about twice the CPU and three times the wall
 * time of the callback API on a 2-core VM (docs/performance.md, "Where the time of a cached GET
 * goes"). Same system calls, same semantics: nothing is made synchronous. Internal: not exported.
 *
 * @module kit/fs-calls
 */
import { mkdir, readFile, rename, stat, writeFile, type BigIntStats } from 'node:fs'
import { dirname } from 'node:path'

/** A file's bytes, or null when it does not exist (ENOENT) or is a directory (EISDIR), as the unstorage fs driver reads. */
export function readFileOrNull(path: string): Promise<Buffer | null>
/** A file's text, or null when it does not exist or is a directory. */
export function readFileOrNull(path: string, encoding: 'utf8'): Promise<string | null>
export function readFileOrNull(path: string, encoding?: 'utf8'): Promise<Buffer | string | null> {
  return new Promise((resolve, reject) => {
    const done = (error: NodeJS.ErrnoException | null, data?: Buffer | string): void => {
      if (error === null) resolve(data ?? null)
      else if (error.code === 'ENOENT' || error.code === 'EISDIR') resolve(null)
      else reject(error)
    }
    if (encoding === undefined) readFile(path, done)
    else readFile(path, encoding, done)
  })
}

/** `stat(2)` with bigint times; null when the file does not exist. */
export function statOrNull(path: string): Promise<BigIntStats | null> {
  return new Promise((resolve, reject) =>
    stat(path, { bigint: true }, (error, stats) => {
      if (error === null) resolve(stats)
      else if (error.code === 'ENOENT') resolve(null)
      else reject(error)
    }),
  )
}

/**
 * Runs `attempt` (a write to `path`); when it fails with ENOENT, creates `path`'s directory and
 * runs it once more. The directory is created only when missing, not before every write.
 */
export function creatingDir<T>(path: string, attempt: () => Promise<T>): Promise<T> {
  return attempt().catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error
    await new Promise<void>((resolve, reject) => mkdir(dirname(path), { recursive: true }, (e) => (e ? reject(e) : resolve())))
    return attempt()
  })
}

/** Writes a whole file, creating its directory when missing (tried first, created only on ENOENT). */
export function writeFileCreatingDir(path: string, data: string | Uint8Array): Promise<void> {
  return creatingDir(path, () => new Promise((resolve, reject) => writeFile(path, data, (error) => (error ? reject(error) : resolve()))))
}

/** `rename(2)`: atomic over an existing file on POSIX file systems. */
export function renameFile(from: string, to: string): Promise<void> {
  return new Promise((resolve, reject) => rename(from, to, (error) => (error ? reject(error) : resolve())))
}
