/**
 * The ioredis client of the stores that talk to Redis directly (the meter and the auth state
 * store): created lazily, closed only when the store created it.
 *
 * @module kit/redis-client
 */
import type { Redis, RedisOptions } from 'ioredis'
import { importPeer } from './errors.js'

/** Fail fast while Redis is down: a few retries per command, 5 s to connect. */
export const CLIENT_OPTIONS: RedisOptions = { lazyConnect: true, maxRetriesPerRequest: 3, connectTimeout: 5_000 }

/**
 * A client for `url`; ioredis (an optional peer dependency) is loaded at the first call, so
 * importing a store never loads it, and a missing ioredis rejects with `ERR_MODULE_NOT_FOUND`.
 */
export async function createClient(url: string): Promise<Redis> {
  const module = (await importPeer('redis', 'ioredis', () => import('ioredis'))) as unknown as { Redis?: typeof Redis; default: typeof Redis }
  const RedisClient = module.Redis ?? module.default
  const client = new RedisClient(url, CLIENT_OPTIONS)
  // Connection errors reach callers through the rejected commands; without a listener ioredis
  // would also print every failed reconnect attempt.
  client.on('error', () => {})
  return client
}

/** Closes a client the store created (`clientPromise`); a client passed in belongs to the caller. */
export async function closeOwnClient(givenClient: Redis | undefined, clientPromise: Promise<Redis> | undefined): Promise<void> {
  if (givenClient || !clientPromise) return
  const client = await clientPromise.catch(() => undefined)
  if (!client || client.status === 'end') return
  if (client.status === 'ready') await client.quit().catch(() => client.disconnect())
  else client.disconnect() // still connecting or retrying: quit would wait for a connection
}
