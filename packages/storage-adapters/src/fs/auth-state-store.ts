/**
 * The auth state store in files: the unstorage implementation over the atomic fs driver, with a
 * lock per directory shared by the whole process.
 *
 * @module fs/auth-state-store
 */
import { resolve } from 'node:path'
import type { AuthStateStore } from '@litho/core/contracts'
import { createStorage } from 'unstorage'
import { atomicFsDriver } from '../kit/atomic-fs-driver.js'
import { DEFAULT_BASE, kit } from '../kit/auth-state.js'
import { directoryLock } from '../kit/locks.js'
import { unstorageStore } from '../unstorage/auth-state-store.js'

/** Options of {@link fsAuthStateStore}. */
export interface FsAuthStateStoreOptions {
  /** The directory holding the state (**required**); created on first write. Keep it for auth state only. */
  base: string
}

/**
 * An auth state store in files under `options.base`: the state survives restarts. One file per
 * key, `<base>/litho/auth-state/<hh>/<sha256 of the key, hex>`, holding the value and its expiry;
 * every write goes to a temporary file renamed into place (the atomic fs driver), so a crash
 * never leaves a truncated entry. `set`, `swap`, `add` and `delete` hold a per-key lock shared
 * by every fs store of this process on the same directory, so `swap` and `add` are atomic within
 * ONE process: never point two processes at one directory (`capabilities.shared` is false).
 * Expired entries read as absent; a write starts a background sweep that removes them, at most
 * every 10 minutes (the first write of a store starts one; `dispose()` stops it). Capabilities
 * `{ persistent: true, shared: false }`.
 *
 * @throws {TypeError} `ERR_MISSING_OPTION` or `ERR_INVALID_ARG_TYPE` when `base` is missing or not a string.
 * @example
 * const state = fsAuthStateStore({ base: '.data/auth-state' })
 * await state.set('refresh:rt_1', { userId: 'u1' }, { ttlSeconds: 30 * 24 * 60 * 60 })
 * const previous = await state.swap('refresh:rt_1', { rotatedTo: 'rt_2' }) // the record, once
 */
export function fsAuthStateStore(options: FsAuthStateStoreOptions): AuthStateStore {
  const directory = (options as { base?: unknown } | undefined)?.base
  kit.assertDirectory('base', directory)
  const root = resolve(directory)
  const storage = createStorage({ driver: atomicFsDriver({ base: root }) })
  // Shared by every fs store of this process on this directory (the package's one lock registry).
  return unstorageStore({ storage, base: DEFAULT_BASE, withLock: directoryLock('fs-auth-state', root), name: 'fs', capabilities: { persistent: true, shared: false }, ownsStorage: true })
}
