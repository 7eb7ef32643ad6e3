/**
 * A file store on an unstorage instance you give: the app-served store (`../kit/file-store.ts`)
 * over any unstorage driver (memory, fs, Redis, Cloudflare KV, Vercel Blob, …), so stored renders
 * live wherever the rest of your app keeps its data. Its signed URLs are checked by the HTTP app
 * (`verifyFileRequest`), as for the memory, fs and Redis stores.
 *
 * @module unstorage/file-store
 */
import type { FileStore } from '@litho/core/contracts'
import { appServedFileStore, kit, readAppServedOptions, toBytes, type AppServedFileStoreOptions } from '../kit/file-store.js'
import { readUnstorageOptions } from '../kit/store-base.js'
import { describe } from '../kit/validate.js'
import type { Storage } from 'unstorage'

/** Options of {@link unstorageFileStore}. */
export interface UnstorageFileStoreOptions extends AppServedFileStoreOptions {
  /** The unstorage instance to keep files in (**required**). The store never disposes it. */
  storage: Storage
  /** Prefix of every key, `:`-separated segments of `[A-Za-z0-9_-]`. @default 'litho:files' */
  base?: string
  /** Whether the driver keeps data across restarts (`capabilities.persistent`: true for fs, Redis, KV; false for memory). @default false */
  persistent?: boolean
}

/**
 * A file store over an unstorage instance. Bytes are written with `setItemRaw` and read with
 * `getItemRaw` (a driver without raw support stores them base64-encoded, which unstorage
 * decodes). Each file is two keys, the bytes under a new version and then the record naming
 * it, so a reader never gets a half-written file from a driver whose single writes are atomic
 * (memory, Redis, KV; unstorage's plain fs driver writes in place: prefer `fsFileStore`, whose
 * writes are renamed into place). Options are checked now; the storage is first touched by the
 * first call; `dispose()` leaves it open.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE`, `ERR_INVALID_ARG_VALUE` or `ERR_MISSING_OPTION` for bad options.
 * @example
 * import { createStorage } from 'unstorage'
 * import fsDriver from 'unstorage/drivers/fs'
 *
 * const files = unstorageFileStore({ storage: createStorage({ driver: fsDriver({ base: '.data' }) }), persistent: true, publicBaseUrl: 'https://render.example.com/files', signer })
 */
export function unstorageFileStore(options: UnstorageFileStoreOptions): FileStore {
  const urls = readAppServedOptions(options)
  const { storage, base } = readUnstorageOptions(kit, options)
  const persistent = options.persistent ?? false
  if (typeof persistent !== 'boolean') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option persistent to be a boolean but received ${describe(persistent)}`)
  return appServedFileStore(urls, base, {
    name: 'unstorage',
    persistent,
    // Copies both ways: the memory driver keeps references, and a caller may reuse its buffer.
    read: async (key) => {
      const value = await storage.getItemRaw(key)
      return value === null || value === undefined ? null : Uint8Array.from(toBytes(value))
    },
    write: (key, bytes) => storage.setItemRaw(key, Uint8Array.from(bytes)),
    remove: (key) => storage.removeItem(key),
    dispose: async () => {},
  })
}
