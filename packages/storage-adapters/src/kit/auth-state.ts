/**
 * What every auth state store shares, whatever its backend: the errors, the key alphabet, the TTL
 * bound and the checks of keys, TTLs and values (the rules are written in `../auth-state-store.ts`).
 * Internal: not exported from the package.
 *
 * @module kit/auth-state
 */
import { storeKit, type StoreKit } from './store-base.js'
import { describe } from './validate.js'

/** The prefix of every message of the auth state stores. */
export const LABEL = 'auth-state-store'
/** The prefix of every key unless a store's `base` says otherwise. */
export const DEFAULT_BASE = 'litho:auth-state'
/** The errors and checks of the unstorage, memory and fs stores. */
export const kit: StoreKit = storeKit({ label: LABEL, adapter: 'unstorage-auth-state-store', defaultBase: DEFAULT_BASE })
/** The errors and checks of the Redis store. */
export const redisKit: StoreKit = storeKit({ label: LABEL, adapter: 'redis-auth-state-store', defaultBase: DEFAULT_BASE })

/** The alphabet and length of keys: the port's rule. */
export const KEY_RE = /^[A-Za-z0-9_.:-]{1,250}$/
/** 10 years: longer is a mistake (a unit error), and it keeps every backend's expiry arithmetic in range. */
export const MAX_TTL_SECONDS = 10 * 365 * 24 * 60 * 60
/** The entries' paths under `base`: a shard and the hex SHA-256 of the key. */
export const ENTRY_PATH_RE = /^[0-9a-f]{2}:[0-9a-f]{64}$/
/** How often (at most) a write starts a sweep of expired entries, in ms. */
export const SWEEP_INTERVAL_MS = 10 * 60_000

/** Keys are never described beyond their type and length: they may hold a code or a token. */
export function assertKey(kit: StoreKit, key: unknown): asserts key is string {
  if (typeof key !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected key to be a string but received ${describe(key)}`)
  if (!KEY_RE.test(key)) throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected key to be 1 to 250 characters of [A-Za-z0-9_.:-] but received ${describe(key)}`)
}

/** `options.ttlSeconds`, checked: undefined (no expiry) or a whole number of seconds. */
export function readTtl(kit: StoreKit, options: unknown): number | undefined {
  if (options === undefined) return undefined
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected options to be an object but received ${describe(options)}`)
  }
  const { ttlSeconds } = options as { ttlSeconds?: unknown }
  if (ttlSeconds === undefined) return undefined
  if (typeof ttlSeconds !== 'number') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected options.ttlSeconds to be a number but received ${describe(ttlSeconds)}`)
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_TTL_SECONDS) {
    throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected options.ttlSeconds to be a whole number from 1 to ${MAX_TTL_SECONDS} but received ${describe(ttlSeconds)}`)
  }
  return ttlSeconds
}

/**
 * The value's JSON, after checking that it round-trips: the wrong type at the top (undefined,
 * null, a function, a symbol, a bigint, a Date or other non-plain object) is `ERR_INVALID_ARG_TYPE`;
 * anything non-JSON inside it (a non-finite number, a function, undefined in an array, a cycle,
 * …) is `ERR_INVALID_ARG_VALUE`. `undefined` properties of objects are left out, as JSON does.
 */
export function serializeValue(kit: StoreKit, value: unknown): string {
  const expected = 'Expected value to be JSON (a plain object, an array, a string, a number or a boolean)'
  if (value === null || !isJsonKind(value)) throw kit.typeError('ERR_INVALID_ARG_TYPE', `${expected} but received ${describeValue(value)}`)
  const problem = findNonJson(value, new Set())
  if (problem !== undefined) throw kit.typeError('ERR_INVALID_ARG_VALUE', `${expected} but it contains ${problem}`)
  return JSON.stringify(value)
}

/** Whether `value` is of a JSON kind: null, a boolean, a number, a string, an array or a plain object. */
function isJsonKind(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return true
  if (typeof value !== 'object') return false
  if (Array.isArray(value)) return true
  const prototype = Object.getPrototypeOf(value) as unknown
  return prototype === Object.prototype || prototype === null
}

/** What in `value` JSON cannot carry faithfully (described, never echoed), or undefined. */
function findNonJson(value: unknown, ancestors: Set<object>): string | undefined {
  if (!isJsonKind(value)) return describeValue(value)
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number that is not finite'
  if (typeof value !== 'object' || value === null) return undefined
  if (ancestors.has(value)) return 'a cycle'
  ancestors.add(value)
  try {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        // A hole or undefined in an array would come back as null.
        if (value[index] === undefined) return 'undefined in an array'
        const problem = findNonJson(value[index], ancestors)
        if (problem !== undefined) return problem
      }
    } else {
      for (const property of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[property]
        if (item === undefined) continue
        const problem = findNonJson(item, ancestors)
        if (problem !== undefined) return problem
      }
    }
    return undefined
  } finally {
    ancestors.delete(value)
  }
}

/** {@link describe}, naming the kinds JSON lacks. */
function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (typeof value === 'function') return 'a function'
  if (typeof value === 'symbol') return 'a symbol'
  if (typeof value === 'bigint') return 'a bigint'
  if (typeof value === 'object' && value !== null && !isJsonKind(value)) return Object.prototype.toString.call(value) === '[object Date]' ? 'a Date' : 'an object that is not plain (a class instance, a Map, …)'
  return describe(value)
}
