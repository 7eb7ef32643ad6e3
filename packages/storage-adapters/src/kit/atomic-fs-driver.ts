/**
 * unstorage's fs driver writes files in place, so a crash mid-write leaves a truncated file:
 * a design or account lost. This wraps the driver so every write goes to a temporary file
 * and is renamed over the target (atomic on POSIX filesystems); reads, listing and key
 * mapping stay the driver's own. Temporary files live in `<base>/.litho-tmp/`, which the
 * listing ignores; store keys never contain a dot, so they cannot collide with it.
 *
 * @module kit/atomic-fs-driver
 */
import { randomUUID } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { Driver } from 'unstorage'
import fsDriver from 'unstorage/drivers/fs'
import { readFileOrNull } from './fs-calls.js'
import { createStatReadCache } from './stat-read-cache.js'

const TMP = '.litho-tmp'
/** The unstorage fs driver's check of keys that would leave its base. */
const PATH_TRAVERSE_RE = /\.\.:|\.\.$/

/**
 * The unstorage fs driver with atomic writes. `base` is the directory; `readCacheBytes` keeps
 * up to that many bytes of file content, revalidated by one `stat` per read (kit/stat-read-cache).
 */
export function atomicFsDriver(options: { base: string; readCacheBytes?: number }): Driver {
  const root = resolve(options.base)
  // No default ignores: `node_modules` and `.git` are valid ids; only our temp folder is skipped.
  const inner = fsDriver({ base: root, ignore: [`**/${TMP}/**`] }) as Driver
  // The driver maps `a:b:c` to `<root>/a/b/c`; rename needs the same path.
  const pathOf = (key: string): string => join(root, ...key.split(':'))

  const cache = options.readCacheBytes ? createStatReadCache(options.readCacheBytes) : undefined

  const write = async (key: string, data: string | Uint8Array): Promise<void> => {
    const target = pathOf(key)
    cache?.forget(target)
    const temporary = join(root, TMP, randomUUID())
    await mkdir(dirname(temporary), { recursive: true })
    await mkdir(dirname(target), { recursive: true })
    await writeFile(temporary, data)
    try {
      await rename(temporary, target)
    } catch (error) {
      await rm(temporary, { force: true })
      throw error
    }
  }

  // Reads through the callback fs API (kit/fs-calls): cheaper per call than the driver's
  // fs/promises, and the same result (null for a missing file). A key with a '..' segment goes
  // to the driver, which refuses it as it always did.
  const read = async (key: string, encoding?: 'utf8'): Promise<unknown> => {
    if (PATH_TRAVERSE_RE.test(key)) return encoding ? inner.getItem(key, {}) : inner.getItemRaw!(key, {})
    if (cache !== undefined) return cache.read(pathOf(key), encoding)
    return encoding ? readFileOrNull(pathOf(key), encoding) : readFileOrNull(pathOf(key))
  }

  return {
    ...inner,
    name: 'fs-atomic',
    getItem: (key) => read(key, 'utf8'),
    getItemRaw: (key) => read(key),
    setItem: (key, value) => write(key, value),
    setItemRaw: (key, value) => write(key, value instanceof Uint8Array ? value : Buffer.from(value as ArrayBuffer)),
    removeItem: async (key, removeOptions) => {
      cache?.forget(pathOf(key))
      await inner.removeItem!(key, removeOptions)
    },
    clear: async (base, clearOptions) => {
      cache?.clear()
      await inner.clear!(base, clearOptions)
    },
  }
}
