/**
 * Reads a JSON request body with a byte limit, counting while it streams, so an oversized
 * body is refused without being held in memory.
 *
 * @module app/read-json-body
 */
import { invalidRequest } from '@litho/core'

/** Thrown for a body over the limit: a 413. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError'
  constructor(readonly limit: number) {
    super(`the body is larger than ${limit} bytes`)
  }
}

/**
 * The parsed JSON body, or `undefined` when there is none.
 *
 * @throws BodyTooLargeError over `limit` bytes; LithoError `ERR_INVALID_REQUEST` for a body that is not JSON.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit)
  if (request.body === null) return undefined
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw new BodyTooLargeError(limit)
    }
    chunks.push(value)
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks))
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw invalidRequest([{ path: 'body', message: `expected JSON, received text that does not parse (${(error as Error).message})` }])
  }
}
