/**
 * The one request-body reader of every Litho route (the authorization server's forms and JSON,
 * and every route of `@litho/http-h3`): it counts bytes while the body streams and stops at the
 * limit, so an oversized body, chunked or not, is refused without being held in memory and
 * without reading the rest of it.
 *
 * @module read-body
 */

/**
 * A body over the limit: answer 413. No `Connection: close` on it: a server that closes while
 * the client is still sending resets the connection, and the client never reads the 413
 * (`litho serve` drops such a connection a moment after the answer instead).
 *
 * @example
 * try { await readBody(request, 64 * 1024) } catch (error) { if (BodyTooLargeError.is(error)) return new Response(null, { status: 413 }) }
 */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError'
  readonly code = 'ERR_BODY_TOO_LARGE'

  constructor(readonly limit: number) {
    super(`the body is larger than ${limit} bytes`)
  }

  /** True for a BodyTooLargeError of any copy of this package (bundlers may load two). */
  static is(error: unknown): error is BodyTooLargeError {
    return error instanceof BodyTooLargeError || (error instanceof Error && (error as { code?: unknown }).code === 'ERR_BODY_TOO_LARGE' && typeof (error as { limit?: unknown }).limit === 'number')
  }
}

/**
 * The request body, at most `limit` bytes, or `undefined` when the request has none.
 *
 * A declared `Content-Length` over the limit is refused before a byte is read; otherwise the
 * stream is counted as it arrives and cancelled the moment it passes the limit.
 *
 * @example
 * const bytes = await readBody(request, 2 * 1024 * 1024) // Uint8Array | undefined
 * @throws BodyTooLargeError over `limit` bytes.
 */
export async function readBody(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (!Number.isSafeInteger(limit) || limit < 0) throw Object.assign(new TypeError(`Expected limit to be a whole number of bytes but received ${limit}`), { code: 'ERR_INVALID_ARG_VALUE' })
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) {
    await request.body?.cancel().catch(() => {})
    throw new BodyTooLargeError(limit)
  }
  if (request.body === null) return undefined
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      // Stop the upload here: nothing past the limit is read or kept.
      await reader.cancel().catch(() => {})
      throw new BodyTooLargeError(limit)
    }
    chunks.push(value)
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)
}

/**
 * The request body as UTF-8 text (at most `limit` bytes; `''` when there is none).
 *
 * @example
 * const text = await readBodyText(request, 64 * 1024)
 * @throws BodyTooLargeError over `limit` bytes.
 */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  const bytes = await readBody(request, limit)
  return bytes === undefined ? '' : new TextDecoder().decode(bytes)
}
