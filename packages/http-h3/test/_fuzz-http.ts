// Shared by the HTTP fuzz properties (fuzz-routes, fuzz-auth): one request through the
// in-process app with a time bound, and the checks every response must pass. A failure prints
// the request, so a shrunk counterexample can be replayed by hand (docs/fuzzing.md).
import { writeFileSync } from 'node:fs'
import fc from 'fast-check'
import { RENDER_URL } from './_harness.js'

/** Slowest request allowed: far above a real one on a loaded 2-core box, far below a hang. */
export const REQUEST_LIMIT_MS = 20_000

/** A request as the fuzzer builds it: path with its raw query, and what goes with it. */
export interface FuzzRequest {
  method: string
  /** Path and query, sent as written (percent garbage like `%ZZ` included). */
  path: string
  headers?: Record<string, string>
  body?: string
}

/** The request as one line for failure messages; long bodies and values are cut. */
export function describeRequest(request: FuzzRequest): string {
  const cut = (s: string) => (s.length > 600 ? `${s.slice(0, 600)}… (${s.length} chars)` : s)
  const headers = Object.entries(request.headers ?? {}).map(([k, v]) => `${k}: ${cut(v)}`)
  return `${request.method} ${cut(request.path)}${headers.length ? ` [${headers.join('; ')}]` : ''}${request.body !== undefined ? ` body ${cut(JSON.stringify(request.body))}` : ''}`
}

/**
 * Sends `request` to `fetchApp` and reads the whole body, failing when either takes longer than
 * {@link REQUEST_LIMIT_MS}.
 */
export async function send(fetchApp: (request: Request) => Promise<Response>, request: FuzzRequest): Promise<{ response: Response; bytes: Uint8Array }> {
  // A case that kills the process (a native abort) leaves no report: FUZZ_LAST_CASE keeps it.
  if (process.env.FUZZ_LAST_CASE) writeFileSync(process.env.FUZZ_LAST_CASE, JSON.stringify(request))
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REQUEST_LIMIT_MS} ms: ${describeRequest(request)}`)), REQUEST_LIMIT_MS)
  })
  try {
    const init: RequestInit = { method: request.method, headers: request.headers ?? {}, ...(request.body !== undefined ? { body: request.body } : {}) }
    return await Promise.race([
      (async () => {
        const response = await fetchApp(new Request(`${RENDER_URL}${request.path}`, init))
        return { response, bytes: new Uint8Array(await response.arrayBuffer()) }
      })(),
      limit,
    ])
  } finally {
    clearTimeout(timer)
  }
}

/** A failure that names the request; fast-check adds the seed and the shrunk case. */
export function fail(request: FuzzRequest, status: number, what: string, body: Uint8Array): never {
  const text = Buffer.from(body).toString('utf8')
  throw new Error(`${what} (status ${status}) for ${describeRequest(request)}\nresponse: ${text.slice(0, 1000)}`)
}

/** No 5xx, except a 503 from a busy render pool (ERR_RENDER_BUSY, with Retry-After). */
export function assertNoServerError(request: FuzzRequest, response: Response, bytes: Uint8Array): void {
  if (response.status < 500) return
  if (response.status === 503 && response.headers.get('retry-after') && Buffer.from(bytes).toString('utf8').includes('ERR_RENDER_BUSY')) return
  fail(request, response.status, 'a server error', bytes)
}

/** The JSON body of `bytes`, or a failure naming the request. */
export function jsonBody(request: FuzzRequest, response: Response, bytes: Uint8Array): Record<string, unknown> {
  if (!/^application\/json/.test(response.headers.get('content-type') ?? '')) fail(request, response.status, `a ${response.status} that is not JSON (${response.headers.get('content-type')})`, bytes)
  try {
    const body = JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('not an object')
    return body as Record<string, unknown>
  } catch {
    return fail(request, response.status, 'an unparseable JSON body', bytes)
  }
}

/** Fails when a request polluted `Object.prototype` (a `__proto__` key merged as a prototype). */
export function assertNoPollution(request: FuzzRequest): void {
  const polluted = Object.getOwnPropertyNames(Object.prototype).filter((name) => !BASELINE_PROTO.has(name))
  if (polluted.length > 0) {
    for (const name of polluted) delete (Object.prototype as Record<string, unknown>)[name]
    throw new Error(`Object.prototype gained ${polluted.join(', ')} after ${describeRequest(request)}`)
  }
}
const BASELINE_PROTO = new Set(Object.getOwnPropertyNames(Object.prototype))

// ---------------------------------------------------------------------------
// Generators shared by both properties

/** Strings that break naive parsers: percent garbage, unicode, controls, sizes. */
export const nastyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 24 }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '', ' ', '%', '%ZZ', '%E0%A4%A', '%00', '%C0%AE', '%2e%2e%2f', '../../etc/passwd', '\u0000', '\u202e', '\u200f', '\ud800', '🎉', 'ن', 'null', 'undefined', 'NaN', '-0', '1e309', '0x10',
      '__proto__', 'constructor', 'prototype', '{}', '[]', '{"a":1}', '<script>', '"', "'", '\\', '&', '=', '+', '#', '?', '/', ';', ',',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', '%', '9', '€', '\u202e'), fc.integer({ min: 1_000, max: 40_000 })).map(([s, n]) => s.repeat(n)) },
)

/** A query-string component: encoded the way a browser would, or raw (so `%ZZ` reaches the app as written). */
export const queryComponent = (value: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(value, fc.constantFrom('encoded', 'encoded', 'encoded', 'raw')).map(([v, how]) => (how === 'encoded' ? encodeURIComponent(safe(v)) : rawQuery(v)))

/** A whole query string of `pairs` (duplicates kept), without the `?`. */
export const queryString = (key: fc.Arbitrary<string>, value: fc.Arbitrary<string>, maxLength = 6): fc.Arbitrary<string> =>
  fc.array(fc.tuple(queryComponent(key), queryComponent(value), fc.boolean()), { maxLength }).map((pairs) => pairs.map(([k, v, bare]) => (bare && v === '' ? k : `${k}=${v}`)).join('&'))

/**
 * A path segment: mostly encoded, sometimes raw percent garbage. Never empty, `.`, `..` or with
 * `/`, `\\`, `?` or `#` raw: a URL parser turns those into other paths (that reach no route).
 */
export const pathSegment = (value: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(value, fc.constantFrom('encoded', 'encoded', 'raw')).map(([v, how]) => {
    const segment = how === 'encoded' || /[/\\?#]/.test(v) ? encodeURIComponent(safe(v)) : rawQuery(v)
    return segment === '' || segment === '.' || segment === '..' ? '%ZZ' : segment
  })

/** Lone surrogates cannot be percent-encoded; they become U+FFFD as a browser would send them. */
function safe(value: string): string {
  return value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
}

/**
 * A raw query component: only what would end the component or the URL is escaped, and the
 * controls and spaces a URL parser strips from the ends of a URL.
 */
function rawQuery(value: string): string {
  return safe(value).replace(/[&#=\s\x00-\x1f\x7f]/g, (c) => encodeURIComponent(c))
}
