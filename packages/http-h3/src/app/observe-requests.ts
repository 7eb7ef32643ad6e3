/**
 * The request middleware of the app's observability: each request gets its id (the proxy's
 * `X-Request-Id` when safe, else a new UUID; observe/request-id), echoed in the response's
 * `X-Request-Id` and added as `requestId` to every Litho JSON error body (beside `success`,
 * `message` and `code`, which stay as documented); and, when the app has them, the HTTP metrics
 * (by route pattern and status), the outcome of each render request, and one log line per request.
 *
 * @module app/observe-requests
 */
import { HTTPError, type H3Event, type Middleware } from 'h3'
import type { LithoLogger } from '../observe/logger.js'
import type { LithoMetrics } from '../observe/metrics.js'
import { REQUEST_ID_HEADER, requestIdOf } from '../observe/request-id.js'

/** The operations whose outcomes `litho_render_requests_total` counts. */
const RENDER_OPERATIONS = new Set(['renderDesign', 'renderDesignWithBody', 'bulkRender', 'exportDesign', 'exportDesignToUpload', 'exportDesignToSignedUrl', 'queueExportJob', 'previewDesign'])

/** An error body larger than this is passed through without a `requestId` (Litho's are far smaller). */
const MAX_ERROR_BODY_BYTES = 64 * 1024

/** What {@link observeRequests} reports to. */
export interface ObserveOptions {
  metrics?: LithoMetrics | undefined
  logger?: LithoLogger | undefined
  /** Log one line per request (with `logger`). */
  logRequests?: boolean
}

/** The context a request's id and outcome are kept in. */
interface ObservedContext {
  requestId?: string
  lithoErrorCode?: string
  matchedRoute?: { route?: string; meta?: { operationId?: string } }
}

/** The id of the request `event` (set by {@link observeRequests}). */
export function requestIdOfEvent(event: H3Event): string | undefined {
  return (event.context as ObservedContext).requestId
}

/**
 * The middleware: ids, error bodies, metrics and request lines.
 *
 * @example app.use(observeRequests({ metrics: createLithoMetrics(), logger, logRequests: true }))
 */
export function observeRequests(options: ObserveOptions): Middleware {
  return async (event, next) => {
    const started = performance.now()
    const context = event.context as ObservedContext
    const id = (context.requestId ??= requestIdOf(event.req.headers.get(REQUEST_ID_HEADER)))
    event.res.errHeaders.set(REQUEST_ID_HEADER, id)
    let status = 500
    try {
      const result = await next()
      if (!(result instanceof Response)) {
        // Set on the event only for a value (see withSecurityHeaders): a Response gets it below.
        event.res.headers.set(REQUEST_ID_HEADER, id)
        status = event.res.status ?? 200
        return result
      }
      status = result.status
      return await withRequestId(result, id)
    } catch (error) {
      status = HTTPError.isError(error) ? error.status : 500
      throw error
    } finally {
      const seconds = (performance.now() - started) / 1000
      const route = context.matchedRoute?.route ?? 'unmatched'
      options.metrics?.observeRequest(event.req.method, route, status, seconds)
      const operation = context.matchedRoute?.meta?.operationId
      if (operation !== undefined && RENDER_OPERATIONS.has(operation)) options.metrics?.countRender(operation, status < 400 ? 'ok' : (context.lithoErrorCode ?? `HTTP_${status}`))
      if (options.logRequests)
        options.logger?.info({ reqId: id, method: event.req.method, route, path: event.url.pathname, status, durationMs: Math.round(seconds * 10_000) / 10 }, 'request')
    }
  }
}

/** `response` with the id in its header, and in its body when it is a Litho JSON error (`{ success: false, … }`). */
async function withRequestId(response: Response, id: string): Promise<Response> {
  let headers = response.headers
  try {
    headers.set(REQUEST_ID_HEADER, id)
  } catch {
    // A Response with immutable headers (passed through from fetch): copy them.
    headers = new Headers(response.headers)
    headers.set(REQUEST_ID_HEADER, id)
    response = new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
  const type = headers.get('content-type') ?? ''
  const length = Number(headers.get('content-length') ?? 0)
  if (response.status < 400 || !type.startsWith('application/json') || length > MAX_ERROR_BODY_BYTES || response.body === null) return response
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  const isLithoError = typeof body === 'object' && body !== null && (body as { success?: unknown }).success === false
  const next = new Headers(headers)
  next.delete('content-length')
  return new Response(isLithoError ? JSON.stringify({ ...(body as Record<string, unknown>), requestId: id }) : text, { status: response.status, statusText: response.statusText, headers: next })
}
