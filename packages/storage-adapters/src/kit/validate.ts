/**
 * Input checks shared by every meter, so each one rejects the same bad input the same way
 * (the meter conformance suite of `@litho/testing` checks this). Internal: not exported.
 *
 * The rule: a request that breaks the rules of the Meter contract (`@litho/core/contracts`)
 * throws a `TypeError` before the backend is touched, so nothing changes. Its `code` is
 * `ERR_INVALID_ARG_TYPE` when a value has the wrong type (not a string, a number, a Date or an
 * object) and `ERR_INVALID_ARG_VALUE` when the type is right but the value is not. Meter
 * methods are `async`, so the throw reaches the caller as a rejected promise.
 *
 * @module kit/validate
 */
import type { ConsumeRequest, HistoryRequest, MeterKey } from '@litho/core/contracts'
import { typeError, type CodedTypeError, type TypeErrorCode } from './errors.js'

/** Subjects, windows and ids: the alphabet of the contract. Keeps keys and file names safe. */
const NAME_RE = /^[A-Za-z0-9_.:-]{1,200}$/

/** Builds the coded TypeError of a meter (`./errors.ts`); `adapter` goes into the `[meter:<adapter>]` prefix. */
export function createTypeError(adapter: string, code: TypeErrorCode, message: string): CodedTypeError {
  return typeError(`meter:${adapter}`, code, message)
}

/** Throws unless `key.subject` and `key.window` are valid. */
export function assertMeterKey(adapter: string, key: unknown): asserts key is MeterKey {
  assertObject(adapter, 'request', key)
  assertName(adapter, 'subject', key.subject)
  assertName(adapter, 'window', key.window)
}

/** Throws unless `request` is a valid {@link ConsumeRequest}. */
export function assertConsumeRequest(adapter: string, request: unknown): asserts request is ConsumeRequest {
  assertMeterKey(adapter, request)
  const { id, amount, limit, expiresAt, at } = request as unknown as Record<string, unknown>
  assertName(adapter, 'id', id)
  assertWholeNumber(adapter, 'amount', amount, 1)
  assertWholeNumber(adapter, 'limit', limit, 0)
  assertDate(adapter, 'expiresAt', expiresAt)
  if (at !== undefined) assertDate(adapter, 'at', at)
}

/** Throws unless `request` is a valid {@link HistoryRequest}: a subject, and valid Dates `from` before `to`. */
export function assertHistoryRequest(adapter: string, request: unknown): asserts request is HistoryRequest {
  assertObject(adapter, 'request', request)
  assertName(adapter, 'subject', request.subject)
  assertDate(adapter, 'from', request.from)
  assertDate(adapter, 'to', request.to)
  if (request.to.getTime() <= request.from.getTime()) {
    throw createTypeError(adapter, 'ERR_INVALID_ARG_VALUE', 'Expected the end (to) to be after the start (from) but received an end at or before it')
  }
}

/** Throws unless `request` is a valid refund request (a key and an id). */
export function assertRefundRequest(adapter: string, request: unknown): asserts request is MeterKey & { id: string } {
  assertMeterKey(adapter, request)
  assertName(adapter, 'id', (request as unknown as Record<string, unknown>).id)
}

/** Throws `ERR_INVALID_ARG_VALUE` unless `value` is a whole number ≥ `min` (for options). */
export function assertWholeNumber(adapter: string, name: string, value: unknown, min: number): asserts value is number {
  if (typeof value !== 'number') {
    throw createTypeError(adapter, 'ERR_INVALID_ARG_TYPE', `Expected ${name} to be a number but received ${describe(value)}`)
  }
  // Safe integers only: Redis and Lua count in doubles, and a float here is always a bug.
  if (!Number.isSafeInteger(value) || value < min) {
    throw createTypeError(adapter, 'ERR_INVALID_ARG_VALUE', `Expected ${name} to be a whole number ≥ ${min} but received ${describe(value)}`)
  }
}

/** Describes a received value without echoing caller input (it may be long or private). */
export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string') return value.length === 0 ? 'an empty string' : `a string of ${value.length} characters`
  if (Array.isArray(value)) return 'an array'
  if (Object.prototype.toString.call(value) === '[object Date]') return 'a Date'
  return typeof value === 'object' ? 'an object' : typeof value
}

// --- internal helpers ---

function assertObject(adapter: string, name: string, value: unknown): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw createTypeError(adapter, 'ERR_INVALID_ARG_TYPE', `Expected ${name} to be an object but received ${describe(value)}`)
  }
}

function assertDate(adapter: string, name: string, value: unknown): asserts value is Date {
  if (Object.prototype.toString.call(value) !== '[object Date]') {
    throw createTypeError(adapter, 'ERR_INVALID_ARG_TYPE', `Expected ${name} to be a Date but received ${describe(value)}`)
  }
  if (!Number.isFinite((value as Date).getTime())) {
    throw createTypeError(adapter, 'ERR_INVALID_ARG_VALUE', `Expected ${name} to be a valid Date but received an invalid Date`)
  }
}

function assertName(adapter: string, name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') {
    throw createTypeError(adapter, 'ERR_INVALID_ARG_TYPE', `Expected ${name} to be a string but received ${describe(value)}`)
  }
  if (!NAME_RE.test(value)) {
    throw createTypeError(
      adapter,
      'ERR_INVALID_ARG_VALUE',
      `Expected ${name} to be 1 to 200 characters of [A-Za-z0-9_.:-] but received ${describe(value)}`,
    )
  }
}
