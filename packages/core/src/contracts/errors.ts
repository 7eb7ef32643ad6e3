/**
 * Errors raised by Litho. Every error carries a stable `code`; HTTP statuses are
 * assigned by the transport adapters, never here.
 *
 * Lives in the contracts entry (`@litho/core/contracts`), which loads nothing but zod, so an
 * adapter can throw and recognise it without loading the renderer; `@litho/core` and
 * `@litho/core/errors` re-export this one module (one class, not a copy).
 *
 * @module contracts/errors
 */

const kLithoError = Symbol.for('litho.error')

/** Every code a {@link LithoError} can carry. */
export type LithoErrorCode =
  /** The design document failed validation; `issues` lists every problem. */
  | 'ERR_INVALID_DESIGN'
  /** An override value could not be coerced or is invalid for its field. */
  | 'ERR_INVALID_OVERRIDE'
  /** A render option (format, quality, size) is out of range. */
  | 'ERR_INVALID_RENDER_OPTION'
  /** The requested variation id does not exist in the document. */
  | 'ERR_UNKNOWN_VARIATION'
  /** A remote image could not be fetched, or was refused by the network policy. */
  | 'ERR_IMAGE_FETCH'
  /** An image was fetched but is not a supported, decodable image within limits. */
  | 'ERR_IMAGE_INVALID'
  /** A font named in `fonts[]` could not be fetched or parsed. */
  | 'ERR_FONT_FETCH'
  /** The render pool's queue is full; retry later. */
  | 'ERR_RENDER_BUSY'
  /** The rendering pipeline failed for another reason. */
  | 'ERR_RENDER_FAILED'
  /** The account's render quota for the current window is used up; `details` has usage, limit, resetAt. */
  | 'ERR_QUOTA_EXCEEDED'
  /** A store was asked to create something whose id or unique key is already used. */
  | 'ERR_STORE_CONFLICT'
  /** A storage backend failed (unreachable, corrupt data); `details.adapter` names it. */
  | 'ERR_STORAGE'
  /** A request parameter or body is invalid; `issues` names each field and why. */
  | 'ERR_INVALID_REQUEST'
  /** Credentials are missing, unknown or deactivated. */
  | 'ERR_UNAUTHORIZED'
  /** No design has this id or render code (for this account), or it has no published version. */
  | 'ERR_DESIGN_NOT_FOUND'
  /** No render key has this id for this account (unknown, deleted, or another account's). */
  | 'ERR_KEY_NOT_FOUND'
  /**
   * The account's plan allows no more designs (`templates` of its plan); `details` has `plan`,
   * `limit` and `count`. Deleting a design or moving to a larger plan makes room.
   */
  | 'ERR_TEMPLATE_LIMIT'
  /** No export job has this id (for this account). */
  | 'ERR_EXPORT_NOT_FOUND'
  /**
   * Storing this render would pass the plan's storage limit (`storageBytes` of its plan); `details`
   * has `usage` and `limit` (bytes) and `bytes` (this file). Nothing was stored.
   */
  | 'ERR_STORAGE_QUOTA'
  /** The server failed in a way the caller cannot act on (a bug, an unexpected backend error); try again. */
  | 'ERR_INTERNAL'
  /** A signed file URL is malformed, signed with an unknown key, forged or expired; or a private file was fetched without one. */
  | 'ERR_BAD_SIGNATURE'
  /** The bearer token is valid but lacks the scope the endpoint needs (RFC 6750 §3.1 `insufficient_scope`). */
  | 'ERR_INSUFFICIENT_SCOPE'
  /** An export job's error only: the job queue gave up on it after its last run; nothing was charged. */
  | 'ERR_EXPORT_ABANDONED'
  /**
   * The account's stored plan is not in the server's plan table (the operator removed or renamed
   * it); `details` has `plan` and `known` (the table's names). Nothing was metered.
   */
  | 'ERR_UNKNOWN_PLAN'
  /** No asset has this id for this account (unknown, deleted, or another account's); `details.field` names where it was referred to. */
  | 'ERR_ASSET_NOT_FOUND'
  /** An uploaded asset is not an accepted image (format, pixels, an SVG with scripts or external references); `details.reason` says which. */
  | 'ERR_ASSET_INVALID'
  /** An uploaded asset is larger than the 10 MB limit. */
  | 'ERR_ASSET_TOO_LARGE'
  /** A published design uses the asset; `details.designs` names them. Delete with `force` to delete anyway. */
  | 'ERR_ASSET_IN_USE'

const CODES = {
  ERR_INVALID_DESIGN: true,
  ERR_INVALID_OVERRIDE: true,
  ERR_INVALID_RENDER_OPTION: true,
  ERR_UNKNOWN_VARIATION: true,
  ERR_IMAGE_FETCH: true,
  ERR_IMAGE_INVALID: true,
  ERR_FONT_FETCH: true,
  ERR_RENDER_BUSY: true,
  ERR_RENDER_FAILED: true,
  ERR_QUOTA_EXCEEDED: true,
  ERR_STORE_CONFLICT: true,
  ERR_STORAGE: true,
  ERR_INVALID_REQUEST: true,
  ERR_UNAUTHORIZED: true,
  ERR_DESIGN_NOT_FOUND: true,
  ERR_KEY_NOT_FOUND: true,
  ERR_TEMPLATE_LIMIT: true,
  ERR_EXPORT_NOT_FOUND: true,
  ERR_STORAGE_QUOTA: true,
  ERR_INTERNAL: true,
  ERR_BAD_SIGNATURE: true,
  ERR_INSUFFICIENT_SCOPE: true,
  ERR_EXPORT_ABANDONED: true,
  ERR_UNKNOWN_PLAN: true,
  ERR_ASSET_NOT_FOUND: true,
  ERR_ASSET_INVALID: true,
  ERR_ASSET_TOO_LARGE: true,
  ERR_ASSET_IN_USE: true,
} as const satisfies Record<LithoErrorCode, true>

/** Every {@link LithoErrorCode}, e.g. to document them or to check a code read from JSON. */
export const LITHO_ERROR_CODES: readonly LithoErrorCode[] = Object.freeze(Object.keys(CODES) as LithoErrorCode[])

/** True when `value` is one of the {@link LITHO_ERROR_CODES}. */
export function isLithoErrorCode(value: unknown): value is LithoErrorCode {
  return typeof value === 'string' && Object.hasOwn(CODES, value)
}

/**
 * The Node-style codes of the `TypeError`s thrown at once for caller misuse (a bad argument or
 * option), never for a failed operation: those are {@link LithoError}s.
 */
export type TypeErrorCode = 'ERR_INVALID_ARG_TYPE' | 'ERR_INVALID_ARG_VALUE' | 'ERR_MISSING_OPTION'

/** A `TypeError` carrying a {@link TypeErrorCode}. */
export type CodedTypeError = TypeError & { code: TypeErrorCode }

/**
 * A `TypeError` with a Node-style code: what adapters and services throw for caller misuse.
 * The message says what was expected and what was received, never the value itself.
 *
 * @example throw createTypeError('ERR_MISSING_OPTION', '[file-store] Expected option bucket but received none')
 */
export function createTypeError(code: TypeErrorCode, message: string): CodedTypeError {
  const error = Object.assign(new TypeError(message), { code })
  if (Error.captureStackTrace) Error.captureStackTrace(error, createTypeError)
  return error
}

/** One problem found while validating input: where it is and what was expected. */
export interface LithoIssue {
  /** JSON path of the offending value, e.g. `components[2].fontSize`; empty for the root. */
  path: string
  /** Human-readable explanation: what was expected and what was received. */
  message: string
}

/** Options of {@link LithoError}. */
export interface LithoErrorOptions {
  /** The underlying error, if any. */
  cause?: unknown
  /** Individual problems, for validation errors. */
  issues?: LithoIssue[]
  /** Extra structured fields safe to show to the caller (never secrets). */
  details?: Record<string, unknown>
}

/**
 * The one error class of Litho. Use {@link LithoError.isInstance} rather than
 * `instanceof`: adapters may load another copy of `@litho/core`.
 *
 * @example
 * try { validateDesign(doc) } catch (error) {
 *   if (LithoError.isInstance(error) && error.code === 'ERR_INVALID_DESIGN') console.log(error.issues)
 * }
 */
export class LithoError extends Error {
  override readonly name = 'LithoError'
  readonly code: LithoErrorCode
  readonly issues: LithoIssue[]
  readonly details: Record<string, unknown>
  readonly [kLithoError] = true

  constructor(code: LithoErrorCode, message: string, options: LithoErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.issues = options.issues ?? []
    this.details = options.details ?? {}
  }

  /** True for any LithoError, whichever copy of the package created it. */
  static isInstance(error: unknown): error is LithoError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[kLithoError] === true
  }

  /** A plain, structured-clone-safe form (for worker threads and JSON responses). */
  toJSON(): { name: 'LithoError'; code: LithoErrorCode; message: string; issues: LithoIssue[]; details: Record<string, unknown> } {
    return { name: 'LithoError', code: this.code, message: this.message, issues: this.issues, details: this.details }
  }

  /** Rebuilds an error from {@link LithoError.toJSON} output (used across worker threads). */
  static fromJSON(value: { code: LithoErrorCode; message: string; issues?: LithoIssue[]; details?: Record<string, unknown> }): LithoError {
    return new LithoError(value.code, value.message, { issues: value.issues ?? [], details: value.details ?? {} })
  }
}

/** Formats a list of issues as one line each: `path: message`. */
export function formatIssues(issues: readonly LithoIssue[]): string {
  return issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('\n')
}
