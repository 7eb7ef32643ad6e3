/**
 * Request ids: the `X-Request-Id` a proxy sends is kept when it is safe to echo and log (1 to
 * 128 of `A-Z a-z 0-9 . _ : -`), otherwise a new one (`crypto.randomUUID()`) replaces it. The
 * id is echoed in every response's `X-Request-Id`, in every Litho JSON error body
 * (`requestId`) and in every log line of the request.
 *
 * @module observe/request-id
 */
import { randomUUID } from 'node:crypto'

/** The header a request id travels in. */
export const REQUEST_ID_HEADER = 'x-request-id'

/** Longest request id accepted from a client or proxy. */
export const MAX_REQUEST_ID_LENGTH = 128

// One character class with a bounded count: linear, no backtracking.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * The request id of a request: `given` when it is a safe id, else a new UUID.
 *
 * @example requestIdOf('edge-7f3a') // 'edge-7f3a'
 * @example requestIdOf('<script>') // a new UUID, e.g. '9b2c…'
 */
export function requestIdOf(given: string | null | undefined): string {
  return typeof given === 'string' && given.length <= MAX_REQUEST_ID_LENGTH && SAFE_ID.test(given) ? given : randomUUID()
}
