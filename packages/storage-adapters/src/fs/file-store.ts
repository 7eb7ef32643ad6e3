/**
 * The file store in files: the app-served store (`../kit/file-store.ts`) over the atomic fs driver.
 *
 * @module fs/file-store
 */
import { resolve } from 'node:path'
import type { FileStore } from '@litho/core/contracts'
import { createStorage, type Storage } from 'unstorage'
import { atomicFsDriver } from '../kit/atomic-fs-driver.js'
import { appServedFileStore, kit, readAppServedOptions, toBytes, type AppServedFileStoreOptions } from '../kit/file-store.js'

/** Options of {@link fsFileStore}. */
export interface FsFileStoreOptions extends AppServedFileStoreOptions {
  /** The directory holding the files (**required**); created on first write. */
  dir: string
  /** Prefix of every stored path, `:`-separated segments of `[A-Za-z0-9_-]`. @default 'litho:files' */
  base?: string
}

/**
 * A file store in files under `options.dir` (the unstorage fs driver, with atomic writes: a
 * temporary file renamed into place). Files survive restarts.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE`, `ERR_INVALID_ARG_VALUE` or `ERR_MISSING_OPTION` for bad options.
 * @example
 * const files = fsFileStore({ dir: '.data/files', publicBaseUrl: 'https://render.example.com/files', signer })
 */
export function fsFileStore(options: FsFileStoreOptions): FileStore {
  const urls = readAppServedOptions(options)
  const dir = options.dir
  kit.assertDirectory('dir', dir)
  const base = options.base ?? kit.defaultBase
  kit.assertBase(base)
  const storage: Storage = createStorage({ driver: atomicFsDriver({ base: resolve(dir) }) })
  return appServedFileStore(urls, base, {
    name: 'fs',
    persistent: true,
    read: async (key) => {
      const value = await storage.getItemRaw(key)
      return value === null || value === undefined ? null : toBytes(value)
    },
    write: (key, bytes) => storage.setItemRaw(key, bytes),
    remove: (key) => storage.removeItem(key),
    dispose: () => storage.dispose(),
  })
}
