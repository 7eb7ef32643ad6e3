/**
 * The auth state store on Redis, through ioredis: each operation one Redis command, atomic across
 * any number of processes (`../auth-state-store.ts` describes the guarantees).
 *
 * @module redis/auth-state-store
 */
import type { AuthStateStore } from '@litho/core/contracts'
import type { Redis } from 'ioredis'
import { DEFAULT_BASE, assertKey, readTtl, redisKit, serializeValue } from '../kit/auth-state.js'
import { closeOwnClient, createClient } from '../kit/redis-client.js'
import { DEFAULT_REDIS_URL } from '../kit/store-base.js'
import { describe } from '../kit/validate.js'

/** Options of {@link redisAuthStateStore}. Give `url` or `client`, not both. */
export interface RedisAuthStateStoreOptions {
  /**
   * Where Redis is (6.2 or newer: `SET … GET`), e.g. `redis://:password@redis.internal:6379/0`.
   * The store creates its client at the first call and quits it in `dispose()`.
   * @default 'redis://127.0.0.1:6379'
   */
  url?: string
  /** Prefix of every key, `:`-separated segments of `[A-Za-z0-9_-]`. @default 'litho:auth-state' */
  base?: string
  /**
   * An ioredis client to use instead of creating one (e.g. shared with `redisMeter`). The store
   * never quits it; its retry options decide how fast calls fail while Redis is down.
   */
  client?: Redis
}

/**
 * Creates an auth state store on Redis, shared by any number of processes and machines. Each
 * operation is one Redis command, which Redis runs atomically:
 *
 * - `get` → `GET <base>:<key>`; `delete` → `DEL`;
 * - `set` → `SET <key> <json> [PX <ms>]` (without a TTL, a previous TTL is cleared);
 * - `swap` → `SET <key> <json> [PX <ms>] GET`: the write and the read of the previous value are
 *   one step, so of N concurrent swaps exactly one sees the value before them, on any number of
 *   instances;
 * - `add` → `SET <key> <json> [PX <ms>] NX`.
 *
 * Values are their JSON text; expiry is Redis' own (to the millisecond). Needs Redis 6.2 or newer
 * (or a compatible server, e.g. Valkey). ioredis is loaded, and the connection made, at the first
 * call; `dispose()` closes a connection the store created. While Redis is down calls reject with
 * `ERR_STORAGE` within about a second.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for bad options (both `url` and `client`, a bad `base`, …).
 * @example
 * const state = redisAuthStateStore({ url: process.env.REDIS_URL })
 * await state.set('code:abc', { clientId: 'c1', userId: 'u1' }, { ttlSeconds: 60 })
 * // Redeem once: of any number of concurrent redemptions, one gets the code, the rest null or the marker.
 * const code = await state.swap('code:abc', { used: true }, { ttlSeconds: 60 })
 */
export function redisAuthStateStore(options: RedisAuthStateStoreOptions = {}): AuthStateStore {
  if (typeof options !== 'object' || options === null) throw redisKit.typeError('ERR_INVALID_ARG_TYPE', `Expected options to be an object but received ${describe(options)}`)
  const { url, client: givenClient, base = DEFAULT_BASE } = options
  if (url !== undefined && givenClient !== undefined) {
    throw redisKit.typeError('ERR_INVALID_ARG_VALUE', 'Expected either option url or option client but received both')
  }
  if (url !== undefined && typeof url !== 'string') throw redisKit.typeError('ERR_INVALID_ARG_TYPE', `Expected option url to be a string but received ${describe(url)}`)
  if (givenClient !== undefined && (typeof givenClient !== 'object' || givenClient === null || typeof givenClient.set !== 'function')) {
    throw redisKit.typeError('ERR_INVALID_ARG_TYPE', `Expected option client to be an ioredis client but received ${describe(givenClient)}`)
  }
  redisKit.assertBase(base)

  let clientPromise: Promise<Redis> | undefined
  let disposed = false
  /** Runs `task` with the client; backend failures become `ERR_STORAGE`. */
  const run = <T>(operation: string, task: (client: Redis) => Promise<T>): Promise<T> =>
    redisKit.wrapBackendErrors(operation, async () => {
      if (disposed) throw redisKit.storageError(operation, 'The store was disposed')
      clientPromise ??= givenClient ? Promise.resolve(givenClient) : createClient(url ?? DEFAULT_REDIS_URL)
      return task(await clientPromise)
    })
  const redisKey = (key: string): string => `${base}:${key}`
  const parse = (text: string | null, operation: string): unknown | null => {
    if (text === null) return null
    try {
      return JSON.parse(text)
    } catch {
      throw redisKit.storageError(operation, 'Expected JSON under the key but found something else')
    }
  }

  return {
    name: 'redis',
    capabilities: { persistent: true, shared: true },

    async get(key: string): Promise<unknown | null> {
      assertKey(redisKit, key)
      return run('get', async (client) => parse(await client.get(redisKey(key)), 'get'))
    },

    async set(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<void> {
      assertKey(redisKit, key)
      const json = serializeValue(redisKit, value)
      const ttlSeconds = readTtl(redisKit, options)
      await run('set', (client) => (ttlSeconds === undefined ? client.set(redisKey(key), json) : client.set(redisKey(key), json, 'PX', ttlSeconds * 1000)))
    },

    async swap(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<unknown | null> {
      assertKey(redisKit, key)
      const json = serializeValue(redisKit, value)
      const ttlSeconds = readTtl(redisKit, options)
      return run('swap', async (client) => {
        const previous =
          ttlSeconds === undefined ? await client.set(redisKey(key), json, 'GET') : await client.set(redisKey(key), json, 'PX', ttlSeconds * 1000, 'GET')
        return parse(previous, 'swap')
      })
    },

    async add(key: string, value: unknown, options?: { ttlSeconds?: number }): Promise<boolean> {
      assertKey(redisKit, key)
      const json = serializeValue(redisKit, value)
      const ttlSeconds = readTtl(redisKit, options)
      return run('add', async (client) => {
        const reply = ttlSeconds === undefined ? await client.set(redisKey(key), json, 'NX') : await client.set(redisKey(key), json, 'PX', ttlSeconds * 1000, 'NX')
        return reply === 'OK'
      })
    },

    async delete(key: string): Promise<boolean> {
      assertKey(redisKit, key)
      return run('delete', async (client) => (await client.del(redisKey(key))) > 0)
    },

    async dispose(): Promise<void> {
      disposed = true
      await closeOwnClient(givenClient, clientPromise)
    },
  }
}
