/**
 * The one coded-error factory of the package. Every message starts with `[<label>]` (e.g.
 * `[design-store]`, `[meter:redis]`, `[job-queue:fs]`) and says what was expected and what was
 * received, never the value itself (it may be long or private). Caller misuse is a `TypeError`
 * with a Node-style code, thrown at once; a failed backend a `LithoError` `ERR_STORAGE`.
 * Internal: not exported from the package.
 *
 * @module kit/errors
 */
// The error classes come from the light `/errors` entry (no zod); the same module as `/contracts`' own.
import { createTypeError, LithoError, type CodedTypeError, type TypeErrorCode } from '@litho/core/errors'

export type { CodedTypeError, TypeErrorCode }

/** A `TypeError` with `code`, for a bad argument or option: `[<label>] <message>`. */
export function typeError(label: string, code: TypeErrorCode, message: string): CodedTypeError {
  const error = createTypeError(code, `[${label}] ${message}`)
  if (Error.captureStackTrace) Error.captureStackTrace(error, typeError)
  return error
}

/** `ERR_STORAGE`: the backend failed or holds data the adapter cannot read; `details` has `adapter` and `operation`. */
export function storageError(label: string, adapter: string, operation: string, message: string, cause?: unknown, details: Record<string, unknown> = {}): LithoError {
  return new LithoError('ERR_STORAGE', `[${label}] ${operation}: ${message}`, { cause, details: { adapter, operation, ...details } })
}

/** `ERR_STORE_CONFLICT` on `field`. The field is named, the value is not (an email, a secret). */
export function conflictError(label: string, adapter: string, operation: string, field: string): LithoError {
  return new LithoError('ERR_STORE_CONFLICT', `[${label}] ${operation}: Expected an unused ${field} but received one already stored`, { details: { adapter, operation, field } })
}

/** The error of a missing optional peer dependency: Node's own code, and the package to install. */
export type MissingPeerError = Error & { code: 'ERR_MODULE_NOT_FOUND'; packageName: string }

/**
 * Imports the optional peer dependency `pkg` (ioredis, bullmq) with `load`, at the first call of
 * a store that needs it. When it is not installed, rejects with `ERR_MODULE_NOT_FOUND` and a
 * message naming the package to install, rather than the loader's "Cannot find package".
 */
export async function importPeer<T>(label: string, pkg: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
    if ((code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') || !String(message).includes(`'${pkg}'`)) throw error
    const missing = new Error(`[${label}] Expected the package ${pkg} to be installed (an optional peer dependency of @litho/storage-adapters, needed for Redis): run \`npm install ${pkg}\``, { cause: error })
    throw Object.assign(missing, { code: 'ERR_MODULE_NOT_FOUND' as const, packageName: pkg }) satisfies MissingPeerError
  }
}

/**
 * True for the errors the adapters raise themselves, which backend wrappers pass through
 * unchanged: LithoErrors, coded TypeErrors and {@link importPeer}'s missing-package error.
 */
export function isOwnError(error: unknown): boolean {
  if (LithoError.isInstance(error)) return true
  if (error instanceof TypeError && typeof (error as { code?: unknown }).code === 'string') return true
  return isMissingPeer(error)
}

/** True for {@link importPeer}'s missing-package error. */
export function isMissingPeer(error: unknown): error is MissingPeerError {
  return error instanceof Error && (error as Partial<MissingPeerError>).code === 'ERR_MODULE_NOT_FOUND' && typeof (error as Partial<MissingPeerError>).packageName === 'string'
}
