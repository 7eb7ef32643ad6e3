/**
 * A meter on Redis: exact across any number of processes and machines sharing one Redis.
 *
 * Consume and refund are Lua scripts, which Redis runs atomically ("no other script or command
 * will run while a script is running"): the check against the limit and the increment are one
 * step. unstorage cannot do this (it has no atomic increment), so this file talks to Redis
 * through ioredis directly. The client is ours, not the unstorage redis driver's: this package
 * exposes no unstorage storage for Redis yet; when it does, both can share one client (the
 * driver's `getInstance()`), passed here as `client`.
 *
 * Key layout, for a subject and a window (`base` defaults to `litho:meter`):
 * - `<base>:{<subject>/<window>}:usage`, a string: the units used.
 * - `<base>:{<subject>/<window>}:ids`, a hash: id → amount of each granted consumption not yet
 *   refunded.
 * - `<base>:{<subject>/<window>}:hours`, a hash: id → the UTC hour its units were counted in
 *   (`2026-11-23T14`), so a refund takes them out of that hour.
 * - `<base>:hist:<subject>:<YYYY-MM>`, a hash per subject and UTC month: `DDTHH` (`23T14`) → net
 *   units of that hour, across windows. A field that a refund brings to 0 is deleted.
 * The braces are a Redis Cluster hash tag, so the keys of a window live on one node. `/` is
 * outside the alphabet of subjects and windows, so two different windows never share keys; a
 * month never contains `:`, so two subjects never share a history key.
 *
 * The keys of a window expire at `expiresAt` plus `graceSeconds`; a history key at the end of its
 * month plus 400 days (the contract's retention). Each `PEXPIREAT` is set by the same script that
 * writes the key, so a crash can never leave a key without expiry.
 *
 * The history key is not under the window's hash tag (history spans windows), and the refund
 * script names it from the hour it reads: the scripts need one Redis (standalone, or a primary
 * with replicas), not Redis Cluster, which refuses a script touching keys of several slots.
 *
 * When Redis cannot be reached every call rejects (`ERR_STORAGE`): the meter fails closed.
 *
 * A consume whose id the window already holds is granted again without counting again. The
 * contract calls a repeated id a caller error; here it also makes a consume that ioredis resends
 * after a lost connection (`autoResendUnfulfilledCommands`) count once.
 *
 * @module redis/meter
 */
import { createHash } from 'node:crypto'
import type { ConsumeRequest, ConsumeResult, HistoryRequest, Meter, MeterCapabilities, MeterKey, UsageHour } from '@litho/core/contracts'
import type { Redis } from 'ioredis'
import { closeOwnClient, createClient } from '../kit/redis-client.js'
import { createMeterError, HISTORY_RETENTION_MS, HOUR_MS, hourSlot, hourStart, monthStart, parseHourSlot, wrapBackendErrors } from '../kit/hours.js'
import {
  assertConsumeRequest,
  assertHistoryRequest,
  assertMeterKey,
  assertRefundRequest,
  assertWholeNumber,
  createTypeError,
  describe,
} from '../kit/validate.js'

/** Options of {@link redisMeter}. Give `url` or `client`, not both. */
export interface RedisMeterOptions {
  /**
   * Where Redis is, e.g. `redis://:password@redis.internal:6379/0`. The meter creates its
   * client at the first call (not before) and quits it in `dispose()`.
   * @default 'redis://127.0.0.1:6379'
   */
  url?: string
  /** Prefix of every key; keep one per application. No `{` or `}`. @default 'litho:meter' */
  base?: string
  /**
   * An ioredis client to use instead of creating one, e.g. one shared with the rest of the
   * application. The meter never quits it; its retry options decide how fast calls fail while
   * Redis is down.
   */
  client?: Redis
  /**
   * Seconds the keys of a window live after its `expiresAt`: a refund of a job that straddled the
   * end of the window still finds its id, and last window's usage can still be shown. Memory stays
   * bounded to about one window per subject plus this.
   * @default 604800 (7 days)
   */
  graceSeconds?: number
}

const ADAPTER_NAME = 'redis'
const DEFAULT_URL = 'redis://127.0.0.1:6379'
const DEFAULT_BASE = 'litho:meter'
/** 7 days: see {@link RedisMeterOptions.graceSeconds}. */
const DEFAULT_GRACE_SECONDS = 7 * 24 * 60 * 60

/**
 * Options of the client the meter creates from `url`. A meter sits on the request path: while
 * Redis is down a call should fail within about a second (4 connection attempts, 50–150 ms apart)
 * rather than wait through ioredis' default 20 attempts.
 */

/**
 * KEYS: usage, ids, hours, history (the month of the hour). ARGV: amount, limit, id, expire-at
 * (epoch ms), hour field (`DDTHH`), history expire-at (epoch ms), hour (`YYYY-MM-DDTHH`).
 * Returns { granted (0|1), usage after the call }.
 */
const CONSUME_SCRIPT = `
local usage = tonumber(redis.call('GET', KEYS[1]) or '0')
if usage == nil then return redis.error_reply('the usage key does not hold a number') end
if redis.call('HEXISTS', KEYS[2], ARGV[3]) == 1 then return {1, usage} end
if usage + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return {0, usage} end
-- Checks first: a script's writes before an error reply are kept. These reads fail on a key of
-- another type (WRONGTYPE) while nothing is written yet.
redis.call('HEXISTS', KEYS[3], ARGV[3])
local inHour = redis.call('HGET', KEYS[4], ARGV[5])
if inHour and not string.match(inHour, '^%d+$') then return redis.error_reply('the history key does not hold a whole number') end
usage = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[3], ARGV[7])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
redis.call('PEXPIREAT', KEYS[2], ARGV[4])
redis.call('PEXPIREAT', KEYS[3], ARGV[4])
redis.call('HINCRBY', KEYS[4], ARGV[5], ARGV[1])
redis.call('PEXPIREAT', KEYS[4], ARGV[6])
return {1, usage}
`

/**
 * KEYS: usage, ids, hours. ARGV: id, prefix of the subject's history keys (`<base>:hist:<subject>:`).
 * Returns 1 when the units were given back, else 0.
 * The id is deleted in the same step as the decrement, so a second refund finds nothing. The
 * history key is named here, from the hour the id was counted in; an id without an hour (counted
 * before the history existed) or whose month has expired leaves the history as it is.
 */
const REFUND_SCRIPT = `
local amount = redis.call('HGET', KEYS[2], ARGV[1])
if not amount then return 0 end
local usage = tonumber(redis.call('GET', KEYS[1]) or '0')
if usage == nil then return redis.error_reply('the usage key does not hold a number') end
if usage < tonumber(amount) then return redis.error_reply('the usage key holds less than the refunded amount') end
local hour = redis.call('HGET', KEYS[3], ARGV[1])
local history, field, inHour
if hour then
  local month
  month, field = string.match(hour, '^([%+%-]?%d+%-%d%d)%-(%d%dT%d%d)$')
  if not month then return redis.error_reply('the hours key does not hold an hour') end
  history = ARGV[2] .. month
  inHour = redis.call('HGET', history, field)
  if inHour and not string.match(inHour, '^%d+$') then return redis.error_reply('the history key does not hold a whole number') end
end
-- Checks first: a script's writes before an error reply are kept, so the id is deleted only
-- when the refund will also be applied.
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('DECRBY', KEYS[1], amount)
if inHour then
  if tonumber(inHour) > tonumber(amount) then redis.call('HINCRBY', history, field, '-' .. amount)
  else redis.call('HDEL', history, field) end
end
return 1
`

/** Months of history read per round trip. */
const HISTORY_BATCH = 120

/**
 * Creates a meter on Redis. Options are checked now; the connection is made at the first call.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_VALUE` or `ERR_INVALID_ARG_TYPE` for bad options (both `url` and `client`, a `base` with braces, …).
 * @example
 * const meter = redisMeter({ url: process.env.REDIS_URL })
 * const { granted } = await meter.consume({ subject: 'user-1', window: '2026-11', amount: 1, limit: 100, id: 'render-1', expiresAt: new Date('2026-12-01') })
 */
export function redisMeter(options: RedisMeterOptions = {}): Meter {
  const { url, client: givenClient } = options
  const base = options.base ?? DEFAULT_BASE
  const graceSeconds = options.graceSeconds ?? DEFAULT_GRACE_SECONDS
  if (url !== undefined && givenClient !== undefined) {
    throw createTypeError(ADAPTER_NAME, 'ERR_INVALID_ARG_VALUE', 'Expected either option url or option client but received both')
  }
  if (url !== undefined && typeof url !== 'string') {
    throw createTypeError(ADAPTER_NAME, 'ERR_INVALID_ARG_TYPE', `Expected option url to be a string but received ${describe(url)}`)
  }
  if (givenClient !== undefined && (typeof givenClient !== 'object' || givenClient === null || typeof givenClient.evalsha !== 'function')) {
    throw createTypeError(ADAPTER_NAME, 'ERR_INVALID_ARG_TYPE', `Expected option client to be an ioredis client but received ${describe(givenClient)}`)
  }
  if (typeof base !== 'string' || !/^[^{}\s]{1,200}$/.test(base)) {
    throw createTypeError(ADAPTER_NAME, 'ERR_INVALID_ARG_VALUE', `Expected option base to be 1 to 200 characters without braces or spaces but received ${describe(base)}`)
  }
  assertWholeNumber(ADAPTER_NAME, 'graceSeconds', graceSeconds, 0)

  let clientPromise: Promise<Redis> | undefined
  let disposed = false
  const getClient = (operation: string): Promise<Redis> => {
    if (disposed) return Promise.reject(createMeterError(ADAPTER_NAME, operation, 'The meter was disposed'))
    return (clientPromise ??= givenClient ? Promise.resolve(givenClient) : createClient(url ?? DEFAULT_URL))
  }
  const keysOf = (key: MeterKey): [usage: string, ids: string, hours: string] => {
    const tag = `${base}:{${key.subject}/${key.window}}`
    return [`${tag}:usage`, `${tag}:ids`, `${tag}:hours`]
  }
  /** The prefix of a subject's history keys; the month (`2026-11`) completes it. */
  const historyPrefixOf = (subject: string): string => `${base}:hist:${subject}:`

  const capabilities: MeterCapabilities = { persistent: true, shared: true }
  return {
    name: ADAPTER_NAME,
    capabilities,

    async consume(request: ConsumeRequest): Promise<ConsumeResult> {
      assertConsumeRequest(ADAPTER_NAME, request)
      const expireAt = request.expiresAt.getTime() + graceSeconds * 1000
      const hour = hourStart((request.at ?? new Date()).getTime())
      const { month, slot } = hourSlot(hour)
      // Every hour of the month is kept 400 days after the month ends (after its own hour, past the range of Date).
      const monthEnd = monthStart(hour, 1)
      const historyExpireAt = (Number.isFinite(monthEnd) ? monthEnd : hour + HOUR_MS) + HISTORY_RETENTION_MS
      const keys = [...keysOf(request), historyPrefixOf(request.subject) + month]
      const args = [request.amount, request.limit, request.id, expireAt, slot, historyExpireAt, `${month}-${slot}`]
      return wrapBackendErrors(ADAPTER_NAME, 'consume', async () => {
        const client = await getClient('consume')
        const reply = await runScript(client, CONSUME_SCRIPT, keys, args)
        if (!Array.isArray(reply) || reply.length !== 2) throw createMeterError(ADAPTER_NAME, 'consume', `Expected a reply of two numbers but received ${describe(reply)}`)
        return { granted: Number(reply[0]) === 1, usage: Number(reply[1]) }
      })
    },

    async refund(request: MeterKey & { id: string }): Promise<boolean> {
      assertRefundRequest(ADAPTER_NAME, request)
      return wrapBackendErrors(ADAPTER_NAME, 'refund', async () => {
        const client = await getClient('refund')
        return Number(await runScript(client, REFUND_SCRIPT, keysOf(request), [request.id, historyPrefixOf(request.subject)])) === 1
      })
    },

    async usage(key: MeterKey): Promise<number> {
      assertMeterKey(ADAPTER_NAME, key)
      return wrapBackendErrors(ADAPTER_NAME, 'usage', async () => {
        const client = await getClient('usage')
        const value = await client.get(keysOf(key)[0])
        if (value === null) return 0
        if (!/^(0|[1-9][0-9]*)$/.test(value)) throw createMeterError(ADAPTER_NAME, 'usage', `Expected a whole number in ${keysOf(key)[0]} but found ${describe(value)}`)
        return Number(value)
      })
    },

    async history(request: HistoryRequest): Promise<UsageHour[]> {
      assertHistoryRequest(ADAPTER_NAME, request)
      const from = hourStart(request.from.getTime())
      const to = request.to.getTime()
      const prefix = historyPrefixOf(request.subject)
      // One hash per month of the range, from the first that can still exist (its keys expire
      // 400 days after the month; one month of margin for clocks that disagree) to the last.
      const months: string[] = []
      const last = monthStart(to - 1)
      for (let start = Math.max(monthStart(from), monthStart(Date.now() - HISTORY_RETENTION_MS, -1)); start <= last; start = monthStart(start, 1)) {
        months.push(hourSlot(start).month)
      }
      return wrapBackendErrors(ADAPTER_NAME, 'history', async () => {
        const client = await getClient('history')
        const found: Array<[hour: number, count: number]> = []
        for (let index = 0; index < months.length; index += HISTORY_BATCH) {
          const batch = months.slice(index, index + HISTORY_BATCH)
          // Sent together: ioredis writes them on one connection without waiting for each reply.
          const replies = await Promise.all(batch.map(async (name) => [name, await client.hgetall(prefix + name)] as const))
          for (const [name, fields] of replies) {
            for (const [field, value] of Object.entries(fields)) {
              const hour = parseHourSlot(name, field)
              if (!Number.isFinite(hour) || !/^(0|[1-9][0-9]*)$/.test(value)) {
                throw createMeterError(ADAPTER_NAME, 'history', `Expected every field of ${prefix + name} to be an hour (DDTHH) holding a whole number, but one is not: the key holds something the meter did not write`)
              }
              const count = Number(value)
              if (count > 0 && hour >= from && hour < to) found.push([hour, count])
            }
          }
        }
        return found.sort((a, b) => a[0] - b[0]).map(([hour, count]) => ({ hour: new Date(hour).toISOString(), count }))
      })
    },

    async dispose(): Promise<void> {
      disposed = true
      await closeOwnClient(givenClient, clientPromise)
    },
  }
}

// --- internal helpers ---


const shas = new Map<string, string>()

/** EVALSHA, falling back to EVAL (which also caches the script) when Redis does not know it yet. */
async function runScript(client: Redis, script: string, keys: string[], args: Array<string | number>): Promise<unknown> {
  let sha = shas.get(script)
  if (sha === undefined) {
    sha = createHash('sha1').update(script).digest('hex')
    shas.set(script, sha)
  }
  try {
    return await client.evalsha(sha, keys.length, ...keys, ...args)
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error
    return client.eval(script, keys.length, ...keys, ...args)
  }
}
