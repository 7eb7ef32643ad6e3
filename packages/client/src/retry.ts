/**
 * A `fetch` that retries a 503 (the server starting, draining, or a credential check that could
 * not run) a bounded number of times, waiting as long as its `Retry-After` says.
 *
 * @module retry
 */

/** When and how often a 503 is tried again. */
export interface RetryOptions {
  /** Tries in all, the first included (1: never retry). @default 3 */
  attempts?: number
  /** The longest wait honoured: a `Retry-After` beyond it is not waited for (the 503 is returned). @default 30000 */
  maxDelayMs?: number
  /** The wait before the second try when the 503 has no `Retry-After`; doubled for each further try. @default 500 */
  baseDelayMs?: number
}

/** A `fetch`-compatible function. */
export type FetchLike = (input: Request) => Promise<Response>

/**
 * The wait a `Retry-After` value asks for, in milliseconds: delay-seconds or an HTTP-date
 * (RFC 9110, 10.2.3); `undefined` when it is absent or neither.
 *
 * @example retryAfterMs('2') // 2000
 */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined
  const text = value.trim()
  if (/^[0-9]{1,9}$/.test(text)) return Number(text) * 1000
  // An IMF-fixdate starts with the day's name: `Thu, 26 Nov 2026 12:00:05 GMT`.
  const at = /^[A-Z][a-z]{2}, /.test(text) ? Date.parse(text) : Number.NaN
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

const sleep = (ms: number, signal: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })

/**
 * Wraps `fetch` so a 503 is retried: at most `attempts` tries, each after the answer's
 * `Retry-After` (or a doubling back-off without one); a wait longer than `maxDelayMs` is not
 * made, and the 503 is returned. The request (its body included) is sent again as it was.
 *
 * @example const fetch = retryingFetch(globalThis.fetch, { attempts: 4 })
 */
export function retryingFetch(fetchFn: FetchLike, options: RetryOptions = {}): FetchLike {
  const attempts = Math.max(1, Math.floor(options.attempts ?? 3))
  const maxDelayMs = options.maxDelayMs ?? 30_000
  const baseDelayMs = options.baseDelayMs ?? 500
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      const response = await fetchFn(attempt < attempts ? request.clone() : request)
      if (response.status !== 503 || attempt >= attempts) return response
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? baseDelayMs * 2 ** (attempt - 1)
      if (wait > maxDelayMs) return response
      await response.body?.cancel()
      await sleep(wait, request.signal)
    }
  }
}
