/**
 * Reads a JSON request body with a byte limit, through the one body reader of every route
 * (`readBody` of `@litho/auth-adapters`, which counts while the body streams), so an oversized
 * body is refused without being held in memory.
 *
 * @module app/read-json-body
 */
import { invalidRequest } from '@litho/core'
import { BodyTooLargeError, readBody } from '@litho/auth-adapters'

export { BodyTooLargeError }

/**
 * The parsed JSON body, or `undefined` when there is none.
 *
 * @example
 * const body = await readJsonBody(event.req, 2 * 1024 * 1024)
 * @throws BodyTooLargeError over `limit` bytes; LithoError `ERR_INVALID_REQUEST` for a body that is not JSON.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const bytes = await readBody(request, limit)
  const text = bytes === undefined ? '' : new TextDecoder('utf-8', { fatal: false }).decode(bytes)
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw invalidRequest([{ path: 'body', message: `expected JSON, received text that does not parse (${(error as Error).message})` }])
  }
}

/**
 * `request` with its body read through the limit, for a handler that parses the body itself
 * (the MCP SDK reads bodies whole, whatever their size).
 *
 * @example const bounded = await readBoundedRequest(event.req, 2 * 1024 * 1024)
 * @throws BodyTooLargeError over `limit` bytes, before the handler sees anything.
 */
export async function readBoundedRequest(request: Request, limit: number): Promise<Request> {
  if (request.body === null) return request
  const body = await readBody(request, limit)
  const headers = new Headers(request.headers)
  // The body is now a known buffer: its framing headers are the new request's to set.
  headers.delete('content-length')
  headers.delete('transfer-encoding')
  return new Request(request.url, { method: request.method, headers, ...(body && body.byteLength > 0 ? { body } : {}), signal: request.signal })
}
