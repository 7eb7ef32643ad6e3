/**
 * The one place that maps errors to HTTP: the status of each `LithoError` code, the JSON bodies
 * (`{ success: false, message, code }`, the quota body of a 429, the OAuth `server_error`), the
 * RFC 6750 challenges of the bearer routes, the 413 of a body over its limit and the 503 of a
 * verifier that cannot check tokens. Route handlers only return values or throw; {@link mapErrors}
 * (h3's `onError` middleware) turns what they throw into these answers.
 *
 * @module app/errors
 */
import { LithoError, quotaOfError, toQuotaErrorBody, type LithoErrorCode, type LithoIssue } from '@litho/core'
import { BearerVerifierUnavailableError, BodyTooLargeError } from '@litho/auth-adapters'
import { onError, type Middleware } from 'h3'
import { FastResponse } from 'srvx'
import { ZodError } from 'zod'
import { quotaHeaders } from './render-response.js'

/** The status of each error code; codes not listed are a 500. */
const STATUS: Partial<Record<LithoErrorCode, number>> = {
  ERR_INVALID_REQUEST: 400,
  ERR_INVALID_RENDER_OPTION: 400,
  ERR_INVALID_OVERRIDE: 400,
  ERR_UNKNOWN_VARIATION: 400,
  ERR_INVALID_DESIGN: 400,
  ERR_UNAUTHORIZED: 401,
  ERR_DESIGN_NOT_FOUND: 404,
  ERR_KEY_NOT_FOUND: 404,
  ERR_EXPORT_NOT_FOUND: 404,
  ERR_ASSET_NOT_FOUND: 404,
  ERR_ASSET_INVALID: 422,
  ERR_ASSET_TOO_LARGE: 413,
  // A published design still draws the asset: deleting it would break that design's renders.
  ERR_ASSET_IN_USE: 409,
  ERR_TEMPLATE_LIMIT: 403,
  // A refused signed render link: forged, expired, or its key revoked (docs/signed-render-links.md).
  ERR_BAD_SIGNATURE: 403,
  // The plan forbids storing more (like the design limit): not a rate, so not a 429, and not a 413 (the request was fine).
  ERR_STORAGE_QUOTA: 403,
  // The account's stored plan is not in the server's table: the operator must move it to one.
  ERR_UNKNOWN_PLAN: 403,
  ERR_STORE_CONFLICT: 409,
  // The request was well formed but what it points at (a remote image or font) failed.
  ERR_IMAGE_FETCH: 422,
  ERR_IMAGE_INVALID: 422,
  ERR_FONT_FETCH: 422,
  ERR_QUOTA_EXCEEDED: 429,
  ERR_RENDER_FAILED: 500,
  ERR_RENDER_BUSY: 503,
  ERR_STORAGE: 503,
}

/** Seconds a client should wait after a 503, when the render queue or storage is saturated. */
export const BUSY_RETRY_AFTER_SECONDS = 2

/** Seconds a client should wait when the bearer verifier cannot check tokens (an external JWKS is down). */
const VERIFIER_RETRY_AFTER_SECONDS = 5

/** A JSON response, e.g. `json({ success: true }, 201)`. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const h = new Headers(headers)
  h.set('content-type', 'application/json; charset=utf-8')
  return new FastResponse(JSON.stringify(body), { status, headers: h })
}

/** An error body: `{ success: false, message }` (docs/http-reference.md, Error), plus a code and issues for programs, e.g. `errorJson(404, 'no such file')`. */
export function errorJson(status: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  return json({ success: false, message, ...extra }, status, headers)
}

/**
 * A refused bearer credential: a 400, 401 or 403 whose `WWW-Authenticate` challenge (RFC 6750
 * §3) tells the client what to do, answered by {@link toErrorResponse}.
 *
 * @example throw new BearerChallenge(401, 'missing credentials', 'Bearer resource_metadata="…"')
 */
export class BearerChallenge extends Error {
  constructor(
    readonly status: 400 | 401 | 403,
    message: string,
    readonly challenge: string,
  ) {
    super(message)
  }
}

/**
 * The response for any error a Litho route throws. LithoErrors keep their message (they never
 * carry secrets); anything unexpected is a 500 whose details go to `report`, not to the client.
 *
 * @example toErrorResponse(new LithoError('ERR_DESIGN_NOT_FOUND', 'no such design'), console.error) // 404
 */
export function toErrorResponse(error: unknown, report: (error: unknown) => void): Response {
  if (error instanceof BearerChallenge) {
    const code = error.status === 400 ? 'ERR_INVALID_REQUEST' : error.status === 401 ? 'ERR_UNAUTHORIZED' : 'ERR_INSUFFICIENT_SCOPE'
    return json({ success: false, message: error.message, code }, error.status, { 'www-authenticate': error.challenge })
  }
  if (error instanceof BearerVerifierUnavailableError) {
    report(error)
    return errorJson(503, `credentials could not be checked: ${error.message}; try again shortly`, { code: error.code }, { 'retry-after': String(VERIFIER_RETRY_AFTER_SECONDS) })
  }
  if (BodyTooLargeError.is(error)) return errorJson(413, `body: ${error.message}`, { code: error.code })
  if (error instanceof ZodError) return toErrorResponse(invalidRequestOf(error), report)
  if (!LithoError.isInstance(error)) {
    report(error)
    return errorJson(500, 'internal error', { code: 'ERR_INTERNAL' })
  }
  const status = STATUS[error.code] ?? 500
  if (status >= 500) report(error)
  if (error.code === 'ERR_QUOTA_EXCEEDED') {
    const details = error.details as { usage: number; limit: number; remaining: number; resetAt: string; retryAfterSeconds?: number }
    const retryAfter = Number(details.retryAfterSeconds ?? 60)
    // The quota headers of a refused render, as on every metered response.
    const quota = quotaHeaders({ usage: details.usage, limit: details.limit, remaining: details.remaining, resetAt: new Date(details.resetAt) })
    return json({ ...toQuotaErrorBody(error), code: error.code }, 429, { ...quota, 'retry-after': String(retryAfter) })
  }
  // A render that consumed a unit and then failed (refunded) still reports the quota.
  const consumed = quotaOfError(error)
  const quota = consumed ? quotaHeaders(consumed) : {}
  if (error.code === 'ERR_STORAGE_QUOTA') {
    const { usage, limit } = error.details as { usage: number; limit: number }
    return errorJson(403, error.message, { code: error.code, data: { usage, limit } }, quota)
  }
  const headers: Record<string, string> = { ...quota, ...(status === 503 ? { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) } : {}) }
  const extra: Record<string, unknown> = { code: error.code }
  if (error.issues.length > 0) extra.issues = error.issues
  if (error.code === 'ERR_UNKNOWN_VARIATION') extra.available = (error.details as { available?: unknown }).available
  // Strict overrides: each unknown key with its "did you mean", and the keys that do exist.
  if (error.code === 'ERR_INVALID_OVERRIDE' && Array.isArray(error.details.unknown)) Object.assign(extra, { unknown: error.details.unknown, valid: error.details.valid })
  // The designs that still draw an asset, so a client can offer to change them.
  if (error.code === 'ERR_ASSET_IN_USE') extra.designs = (error.details as { designs?: unknown }).designs
  if (error.code === 'ERR_BAD_SIGNATURE') {
    // Why a signed link was refused, for programs; never kept by a cache (a new link may fix it).
    extra.reason = (error.details as { reason?: unknown }).reason
    headers['cache-control'] = 'no-store'
  }
  return errorJson(status, status === 500 ? `render failed: ${error.message}` : error.message, extra, headers)
}

/**
 * The answer of the authorization server's endpoints to an error they did not answer
 * themselves: the OAuth `server_error` body (RFC 6749 §5.2), never cached, details reported.
 */
export function toOAuthErrorResponse(error: unknown, report: (error: unknown) => void): Response {
  report(error)
  return json({ error: 'server_error', error_description: 'The server could not complete the request; try again' }, 500, { 'cache-control': 'no-store' })
}

/** A zod error as `ERR_INVALID_REQUEST`, one issue per problem, named by its path. */
function invalidRequestOf(error: ZodError): LithoError {
  const issues: LithoIssue[] = error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }))
  const message = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ')
  return new LithoError('ERR_INVALID_REQUEST', message, { issues })
}

/** Which error bodies a route answers: Litho's JSON, or OAuth's (the authorization server's endpoints). */
export type ErrorStyle = 'litho' | 'oauth'

/** What an unexpected error is reported with: the id of the request it happened in. */
export interface ErrorReportContext {
  requestId?: string
}

/**
 * The error middleware of every Litho route, on h3's `onError`: what the route throws becomes
 * the response of {@link toErrorResponse} (or {@link toOAuthErrorResponse}). It is attached to
 * each route rather than to the app's `onError` option because a mounted h3 app's routes are
 * copied into the parent, which never calls the child's options (docs/mounting.md). The error's
 * code is left on `event.context.lithoErrorCode` (for the render metrics), and what is reported
 * carries the request id.
 *
 * @example app.get('/v1/:design_id', handler, { middleware: [mapErrors('litho', console.error)] })
 */
export function mapErrors(style: ErrorStyle, report: (error: unknown, context?: ErrorReportContext) => void): Middleware {
  return onError((error, event) => {
    // h3 wraps what was thrown in an HTTPError marked `unhandled`; the original is its cause.
    const thrown = error.unhandled && error.cause !== undefined ? error.cause : error
    const context = event.context as { requestId?: string; lithoErrorCode?: string }
    context.lithoErrorCode = errorCodeOf(thrown)
    const reportHere = (reported: unknown) => report(reported, context.requestId === undefined ? {} : { requestId: context.requestId })
    return style === 'oauth' ? toOAuthErrorResponse(thrown, reportHere) : toErrorResponse(thrown, reportHere)
  })
}

/** The code an error is answered with, e.g. `ERR_QUOTA_EXCEEDED`; `ERR_INTERNAL` for the unexpected. */
function errorCodeOf(error: unknown): string {
  if (LithoError.isInstance(error)) return error.code
  if (error instanceof ZodError) return 'ERR_INVALID_REQUEST'
  if (error instanceof BearerChallenge) return error.status === 400 ? 'ERR_INVALID_REQUEST' : error.status === 401 ? 'ERR_UNAUTHORIZED' : 'ERR_INSUFFICIENT_SCOPE'
  if (error instanceof BearerVerifierUnavailableError || BodyTooLargeError.is(error)) return (error as { code: string }).code
  return 'ERR_INTERNAL'
}
