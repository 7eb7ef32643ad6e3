/**
 * h3 refuses a path whose percent-encoding does not decode (`/v1/%ZZ`) before any route runs,
 * with its own `{ status, message: "Bad Request" }` body. This `onError` hook answers it the
 * way every other refusal is answered: `{ success: false, message, code, issues }` naming the path.
 *
 * @module app/malformed-url
 */
import type { H3Event } from 'h3'
import { REQUEST_ID_HEADER, requestIdOf } from '../observe/request-id.js'
import { errorJson } from './errors.js'

/** Longest excerpt of the path quoted in the message. */
const QUOTE_CHARS = 200

/**
 * The 400 for a request whose path is not valid percent-encoding; `undefined` for any other
 * error (h3 answers it as before). Pass it as `onError` of an `H3` app.
 *
 * @example const app = new H3({ onError: malformedUrlResponse })
 */
export function malformedUrlResponse(_error: unknown, event: H3Event): Response | undefined {
  const pathname = event.url.pathname
  try {
    decodeURI(pathname)
    return undefined
  } catch {
    const quoted = pathname.length > QUOTE_CHARS ? `${pathname.slice(0, QUOTE_CHARS)}…` : pathname
    const message = `expected a path with valid percent-encoding (% and two hex digits, UTF-8), received ${JSON.stringify(quoted)}`
    // No middleware ran: the request id is checked (or made) here, as observe-requests does.
    const requestId = requestIdOf(event.req.headers.get(REQUEST_ID_HEADER))
    return errorJson(400, `path: ${message}`, { code: 'ERR_INVALID_REQUEST', issues: [{ path: 'path', message }], requestId }, { [REQUEST_ID_HEADER]: requestId })
  }
}
