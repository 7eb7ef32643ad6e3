/**
 * Responses: JSON bodies, and the one place that maps errors to HTTP statuses.
 *
 * @module app/respond
 */
import { LithoError, quotaOfError, toQuotaErrorBody, type LithoErrorCode, type QuotaState, type RenderWarning } from '@litho/core'
import { BodyTooLargeError } from '@litho/auth-adapters'

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
  ERR_TEMPLATE_LIMIT: 403,
  // The plan forbids storing more (like the design limit): not a rate, so not a 429, and not a 413 (the request was fine).
  ERR_STORAGE_QUOTA: 403,
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

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const h = new Headers(headers)
  h.set('content-type', 'application/json; charset=utf-8')
  return new Response(JSON.stringify(body), { status, headers: h })
}

/** An error body: `{ success: false, message }` (interface.md §7), plus a code and issues for programs. */
export function errorJson(status: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  return json({ success: false, message, ...extra }, status, headers)
}

/**
 * The response for any error a handler throws. LithoErrors keep their message (they never
 * carry secrets); anything else is a 500 whose details go to `report`, not to the client.
 */
export function toErrorResponse(error: unknown, report: (error: unknown) => void): Response {
  if (BodyTooLargeError.is(error)) return errorJson(413, `body: ${error.message}`, { code: error.code })
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
  return errorJson(status, status === 500 ? `render failed: ${error.message}` : error.message, extra, headers)
}

/** Quota headers on every metered response, so clients can pace themselves. */
export function quotaHeaders(quota: QuotaState): Record<string, string> {
  return {
    'x-quota-limit': String(quota.limit),
    'x-quota-remaining': String(quota.remaining),
    'x-quota-reset': quota.resetAt.toISOString(),
  }
}

/** What a render or an export returns: bytes (`stream`) or a JSON body (stored deliveries). */
export type RenderOutcome = { warnings: readonly RenderWarning[]; quota: QuotaState } & (
  | { delivery: 'stream'; bytes: Uint8Array; contentType: string; format: string; variation: string }
  | { delivery: 'hosted' | 'signed'; body: unknown }
)

/**
 * The response of a render or an export: quota and warning headers (`X-Litho-Ignored-Overrides`
 * lists the ignored keys), then the JSON body, or the bytes with their type, a file name and
 * `X-Litho-Variation`. Never cached: every fetch is a metered render.
 */
export function renderOutcomeResponse(result: RenderOutcome, options: { name: string; disposition: 'inline' | 'attachment'; headers?: Record<string, string> }): Response {
  const headers: Record<string, string> = { ...quotaHeaders(result.quota), 'cache-control': 'private, no-store', ...options.headers }
  const ignored = result.warnings.filter((w) => w.code === 'override_ignored' && w.key).map((w) => encodeURIComponent(w.key!))
  if (ignored.length > 0) headers['x-litho-ignored-overrides'] = ignored.join(',')
  if (result.warnings.length > 0) headers['x-litho-warnings'] = String(result.warnings.length)
  if (result.delivery !== 'stream') return json(result.body, 200, headers)
  const extension = result.format === 'jpeg' ? 'jpg' : result.format
  return new Response(result.bytes, {
    status: 200,
    headers: {
      ...headers,
      'content-type': result.contentType,
      'content-length': String(result.bytes.byteLength),
      'content-disposition': `${options.disposition}; filename="${options.name.replace(/[^A-Za-z0-9_-]/g, '')}.${extension}"`,
      'x-litho-variation': result.variation,
    },
  })
}
