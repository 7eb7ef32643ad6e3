/**
 * The file store on Redis: the app-served store (`../kit/file-store.ts`) over the ioredis client of the unstorage redis driver.
 *
 * @module redis/file-store
 */
import type { FileStore } from '@litho/core/contracts'
import { createStorage, type Storage } from 'unstorage'
import { appServedFileStore, kit, readAppServedOptions, type AppServedFileStoreOptions } from '../kit/file-store.js'
import { DEFAULT_REDIS_URL, loadRedisDriver } from '../kit/store-base.js'
import { describe } from '../kit/validate.js'

/** Options of {@link redisFileStore}. */
export interface RedisFileStoreOptions extends AppServedFileStoreOptions {
  /** Where Redis is. @default 'redis://127.0.0.1:6379' */
  url?: string
  /** Prefix of every key. @default 'litho:files' */
  base?: string
}

/**
 * A file store on Redis, shared by any number of processes. Bytes are stored raw (`SET` of a
 * buffer, read with `GETBUFFER`) on the ioredis client of the unstorage redis driver, not through
 * unstorage's `setItemRaw`, which would store them base64-encoded. The client is loaded and
 * connected at the first call; `dispose()` closes it. Keep files small: each is one Redis value.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE`, `ERR_INVALID_ARG_VALUE` or `ERR_MISSING_OPTION` for bad options.
 * @example
 * const files = redisFileStore({ url: process.env.REDIS_URL, publicBaseUrl: 'https://render.example.com/files', signer })
 */
export function redisFileStore(options: RedisFileStoreOptions): FileStore {
  const urls = readAppServedOptions(options)
  const { url = DEFAULT_REDIS_URL, base = kit.defaultBase } = options
  if (typeof url !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option url to be a string but received ${describe(url)}`)
  kit.assertBase(base)
  type Client = { set(key: string, value: Buffer): Promise<unknown>; getBuffer(key: string): Promise<Buffer | null>; del(key: string): Promise<number>; quit(): Promise<unknown>; disconnect(): void }
  let loading: Promise<{ client: Client; storage: Storage }> | undefined
  let disposed = false
  const load = (): Promise<{ client: Client; storage: Storage }> => {
    if (disposed) return Promise.reject(new Error('The store was disposed'))
    // Bytes go through the driver's own ioredis client; the storage is kept to dispose it.
    return (loading ??= loadRedisDriver(url).then((driver) => ({ client: driver.getInstance?.() as unknown as Client, storage: createStorage({ driver }) })))
  }
  return appServedFileStore(urls, base, {
    name: 'redis',
    persistent: true,
    read: async (key) => {
      const value = await (await load()).client.getBuffer(key)
      return value === null ? null : new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
    },
    write: async (key, bytes) => void (await (await load()).client.set(key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))),
    remove: async (key) => void (await (await load()).client.del(key)),
    dispose: async () => {
      disposed = true
      const loaded = await loading?.catch(() => undefined)
      await loaded?.storage.dispose()
    },
  })
}
