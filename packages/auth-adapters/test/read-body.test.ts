// The one body reader of every route: stops at the limit without reading the rest.
import { describe, expect, it } from 'vitest'
import { BodyTooLargeError, readBody, readBodyText } from '../src/index.js'

/** An endless chunked body that records how much was pulled from it and whether it was cancelled. */
function endless(chunkBytes = 1024) {
  const state = { pulled: 0, cancelled: false }
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled += chunkBytes
      controller.enqueue(new Uint8Array(chunkBytes).fill(0x61))
    },
    cancel() {
      state.cancelled = true
    },
  })
  return { stream, state }
}

const post = (body: ReadableStream<Uint8Array> | string | null, headers: Record<string, string> = {}) => new Request('http://x.test/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit)

describe('readBody', () => {
  it('an endless chunked body is refused once it passes the limit, and its stream is cancelled', async () => {
    const { stream, state } = endless()
    const error = await readBody(post(stream), 10_000).catch((e: unknown) => e)
    expect(BodyTooLargeError.is(error)).toBe(true)
    expect((error as BodyTooLargeError).limit).toBe(10_000)
    expect(state.cancelled).toBe(true)
    // What was read is the limit plus what was already queued, never the body.
    expect(state.pulled).toBeLessThan(10_000 + 4 * 1024)
  })

  it('a declared Content-Length over the limit is refused before a byte is read', async () => {
    const { stream, state } = endless()
    await expect(readBody(post(stream, { 'content-length': '999999' }), 1000)).rejects.toBeInstanceOf(BodyTooLargeError)
    expect(state.pulled).toBeLessThanOrEqual(1024)
  })

  it('reads a body up to the limit exactly, and none as undefined / empty text', async () => {
    expect(await readBody(post('x'.repeat(1000)), 1000)).toHaveLength(1000)
    await expect(readBody(post('x'.repeat(1001)), 1000)).rejects.toThrow('the body is larger than 1000 bytes')
    expect(await readBody(new Request('http://x.test/'), 10)).toBeUndefined()
    expect(await readBodyText(post('héllo'), 10)).toBe('héllo')
    await expect(readBody(post('x'), -1)).rejects.toThrow(/Expected limit/)
  })
})
