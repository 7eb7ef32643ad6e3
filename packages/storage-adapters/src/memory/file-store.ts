/**
 * The file store in process memory: the app-served store (`../kit/file-store.ts`) over the memory driver.
 *
 * @module memory/file-store
 */
import type { FileStore } from '@litho/core/contracts'
import { createStorage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import { appServedFileStore, kit, readAppServedOptions, toBytes, type AppServedFileStoreOptions } from '../kit/file-store.js'

/** Options of {@link memoryFileStore}. */
export type MemoryFileStoreOptions = AppServedFileStoreOptions

/**
 * A file store in process memory: for tests and development. Every call gives a new, empty
 * store; nothing survives the process.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE`, `ERR_INVALID_ARG_VALUE` or `ERR_MISSING_OPTION` for bad options.
 * @example
 * const files = memoryFileStore({ publicBaseUrl: 'http://localhost:3000/files', signer })
 */
export function memoryFileStore(options: MemoryFileStoreOptions): FileStore {
  const urls = readAppServedOptions(options)
  const storage = createStorage({ driver: memoryDriver() })
  return appServedFileStore(urls, kit.defaultBase, {
    name: 'memory',
    persistent: false,
    // The memory driver keeps references: store and return copies.
    read: async (key) => {
      const value = await storage.getItemRaw(key)
      return value === null || value === undefined ? null : Uint8Array.from(toBytes(value))
    },
    write: (key, bytes) => storage.setItemRaw(key, Uint8Array.from(bytes)),
    remove: (key) => storage.removeItem(key),
    dispose: () => storage.dispose(),
  })
}
