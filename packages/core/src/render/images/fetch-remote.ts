/**
 * Fetches a remote resource (or decodes a `data:` URI) for the renderer, under the network
 * policy and hard limits on size, time and redirects. Used for images and fonts.
 *
 * @module render/images/fetch-remote
 */
import { LithoError } from '../../errors.js'
import { describeReceived, invalidArgument } from '../../_internal/argument-error.js'
import { decodeDataUri } from './data-uri.js'
import { describeSource } from './describe-source.js'
import { assertNetworkPolicy, type NetworkPolicy } from '../../network/policy.js'
import { checkOutboundUrl, classifyConnectFailure, describeToken, loadHttpClient } from '../../network/outbound.js'

/** Bounds on one fetch, redirects included. */
export interface FetchLimits {
  /** Largest body accepted, counted while streaming. */
  maxBytes: number
  /** Name resolution plus TCP/TLS handshake, per connection. */
  connectTimeoutMs: number
  /** Everything: all hops, headers and the whole body. */
  timeoutMs: number
  /** Redirects followed before giving up. */
  maxRedirects: number
}

/** The limits used when none are given (docs/fonts-and-images.md, "Limits for remote images"). */
export const DEFAULT_FETCH_LIMITS: FetchLimits = Object.freeze({
  // Supabase's 25 MB: larger than any image a design needs, small enough that a few in flight
  // per worker cannot exhaust memory.
  maxBytes: 25_000_000,
  // imgproxy IMGPROXY_DOWNLOAD_TIMEOUT and thumbor's connect timeout.
  connectTimeoutMs: 5_000,
  // imgproxy IMGPROXY_TIMEOUT: a slow source must not hold a render worker for longer.
  timeoutMs: 10_000,
  // thumbor HTTP_LOADER_MAX_REDIRECTS; real CDNs need one or two.
  maxRedirects: 5,
})

/** The `reason` in a fetch error's `details`. */
export type FetchFailureReason =
  | 'bad_scheme'
  | 'bad_data_uri'
  | 'blocked_address'
  | 'dns_failure'
  | 'too_many_redirects'
  | 'timeout'
  | 'too_large'
  | 'http_status'
  | 'content_encoding'
  | 'network'

/** Options of {@link fetchRemote}. */
export interface FetchRemoteOptions {
  /** Which addresses may be reached; required, so no caller gets a permissive default. */
  policy: NetworkPolicy
  /** Overrides of {@link DEFAULT_FETCH_LIMITS}. */
  limits?: Partial<FetchLimits>
  /** The code of thrown errors (default `ERR_IMAGE_FETCH`). */
  errorCode?: 'ERR_IMAGE_FETCH' | 'ERR_FONT_FETCH'
  /** The `accept` request header (default `*\/*`). */
  accept?: string
}

/** What {@link fetchRemote} returns. */
export interface FetchedResource {
  bytes: Buffer
  /** The `content-type` response header (or the `data:` media type), unverified. */
  contentType: string | undefined
  /** The URL after redirects. */
  finalUrl: string
}

/**
 * Fetches `url` (https:, http: when `policy.allowHttp`, or data:) into memory. Every connection
 * goes through the pinned connector, redirects are followed by hand and re-checked per hop,
 * the body is never decompressed, and the byte cap is enforced while streaming. Failures throw
 * a {@link LithoError} with `details: { url, reason }`.
 *
 * @example
 * const { bytes, contentType } = await fetchRemote('https://cdn.example.com/logo.png', { policy: networkPolicyFromEnv() })
 */
export async function fetchRemote(url: string, options: FetchRemoteOptions): Promise<FetchedResource> {
  if (typeof url !== 'string') throw invalidArgument(`Expected url to be a string but received ${describeReceived(url)}`)
  const policy = options?.policy
  assertNetworkPolicy(policy, 'options.policy')
  const limits = resolveFetchLimits(options.limits)
  const errorCode = options.errorCode ?? 'ERR_IMAGE_FETCH'
  if (errorCode !== 'ERR_IMAGE_FETCH' && errorCode !== 'ERR_FONT_FETCH') {
    throw invalidArgument(`Expected options.errorCode to be ERR_IMAGE_FETCH or ERR_FONT_FETCH but received ${describeReceived(errorCode)}`)
  }
  const fail = (reason: FetchFailureReason, problem: string, extra: Record<string, unknown> = {}, cause?: unknown): LithoError =>
    new LithoError(errorCode, `could not fetch ${describeSource(url)}: ${problem}`, { cause, details: { url: describeSource(url), reason, ...extra } })

  const trimmed = url.trim()
  if (/^data:/i.test(trimmed)) {
    const decoded = decodeDataUri(trimmed, limits.maxBytes)
    if ('reason' in decoded) {
      throw decoded.reason === 'too_large'
        ? fail('too_large', `the data is ${decoded.size} bytes, more than the limit of ${limits.maxBytes}`, { limit: limits.maxBytes })
        : fail('bad_data_uri', decoded.problem)
    }
    return { bytes: decoded.bytes, contentType: decoded.mediaType, finalUrl: trimmed }
  }

  // Scheme and form are checked before any I/O: file:, ftp:, gopher: and bare paths such as
  // /etc/passwd never reach a resolver, a socket or the filesystem.
  const first = parseFetchableUrl(trimmed, undefined, policy)
  if (typeof first === 'string') throw fail('bad_scheme', first)
  return fetchOverNetwork(first, policy, limits, options.accept ?? '*/*', fail)
}

type Fail = (reason: FetchFailureReason, problem: string, extra?: Record<string, unknown>, cause?: unknown) => LithoError

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

async function fetchOverNetwork(first: URL, policy: NetworkPolicy, limits: FetchLimits, accept: string, fail: Fail): Promise<FetchedResource> {
  const { openGuardedAgent, outboundFetch } = await loadHttpClient()
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort(new Error('total timeout'))
  }, limits.timeoutMs)
  // One Agent per call: its connector carries this call's policy and connect timeout, and
  // destroying it afterwards guarantees no socket (and no half-read body) outlives the fetch.
  const agent = openGuardedAgent(policy, limits.connectTimeoutMs)
  let current = first

  try {
    for (let hop = 0; ; hop++) {
      const response = await outboundFetch.raw<ReadableStream<Uint8Array>, 'stream'>(current.href, {
        method: 'GET',
        dispatcher: agent,
        signal: controller.signal,
        // Redirects are followed below, so each hop's scheme is re-checked and counted.
        redirect: 'manual',
        // ofetch would retry a 5xx once; a failing source should fail fast instead.
        retry: 0,
        ignoreResponseError: true,
        responseType: 'stream',
        // We never decompress: a small gzip body can expand without bound.
        headers: { accept, 'accept-encoding': 'identity' },
      })
      const hopNote = hop === 0 ? '' : ` (after ${hop} redirect${hop === 1 ? '' : 's'}, at ${describeSource(current.href)})`

      if (REDIRECT_STATUSES.has(response.status)) {
        const location = response.headers.get('location')
        await response.body?.cancel().catch(() => {})
        if (location === null) throw fail('http_status', `the server answered HTTP ${response.status} without a Location${hopNote}`, { status: response.status })
        if (hop >= limits.maxRedirects) throw fail('too_many_redirects', `more than ${limits.maxRedirects} redirects`, { limit: limits.maxRedirects })
        const next = parseFetchableUrl(location, current, policy)
        if (typeof next === 'string') throw fail('bad_scheme', `redirected to ${describeSource(location)}, but ${next}`)
        current = next
        continue
      }

      if (response.status < 200 || response.status > 299) {
        await response.body?.cancel().catch(() => {})
        throw fail('http_status', `the server answered HTTP ${response.status}${hopNote}`, { status: response.status })
      }

      const encoding = response.headers.get('content-encoding')?.trim().toLowerCase()
      if (encoding !== undefined && encoding !== '' && encoding !== 'identity') {
        // We asked for identity; a server that compresses anyway is refused rather than inflated.
        await response.body?.cancel().catch(() => {})
        throw fail('content_encoding', `the server sent a ${describeToken(encoding)}-encoded body although none was requested${hopNote}`)
      }

      // Content-Length is only used to fail early; the real cap is counted while reading.
      const declared = Number(response.headers.get('content-length') ?? Number.NaN)
      if (Number.isFinite(declared) && declared > limits.maxBytes) {
        await response.body?.cancel().catch(() => {})
        throw fail('too_large', `the response is ${declared} bytes, more than the limit of ${limits.maxBytes}${hopNote}`, { limit: limits.maxBytes })
      }

      const bytes = await readCapped(response.body, limits.maxBytes, controller)
      if (bytes === undefined) throw fail('too_large', `the response is larger than the limit of ${limits.maxBytes} bytes${hopNote}`, { limit: limits.maxBytes })
      return { bytes, contentType: response.headers.get('content-type') ?? undefined, finalUrl: current.href }
    }
  } catch (error) {
    if (LithoError.isInstance(error)) throw error
    const hopNote = current === first ? '' : ` (redirected to ${describeSource(current.href)})`
    if (timedOut) throw fail('timeout', `no complete response within ${limits.timeoutMs} ms${hopNote}`, { limit: limits.timeoutMs }, error)
    const failure = classifyConnectFailure(error)
    if (failure.reason === 'connect_timeout') throw fail('timeout', `could not connect within ${limits.connectTimeoutMs} ms${hopNote}`, { limit: limits.connectTimeoutMs }, error)
    if (failure.reason === 'network') throw fail('network', `the connection failed${failure.code === undefined ? '' : ` (${failure.code})`}${hopNote}`, {}, error)
    throw fail(failure.reason, `${failure.message}${hopNote}`, failure.address === undefined ? {} : { address: failure.address }, error)
  } finally {
    clearTimeout(timer)
    agent.destroy().catch(() => {})
  }
}

/** Reads the body, or returns undefined (and aborts the transfer) once it passes `maxBytes`. */
async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number, controller: AbortController): Promise<Buffer | undefined> {
  if (body === null) return Buffer.alloc(0)
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return Buffer.concat(chunks, total)
    total += value.byteLength
    if (total > maxBytes) {
      // Stop at once: do not drain the rest, close the connection.
      controller.abort(new Error('size limit'))
      reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
}

/** An outbound URL (network/outbound), with the message a `data:`-accepting source needs. */
function parseFetchableUrl(text: string, base: URL | undefined, policy: NetworkPolicy): URL | string {
  const checked = checkOutboundUrl(text, base, policy)
  return checked === 'expected an absolute https: URL' ? 'expected an absolute https: URL or a data: URI' : checked
}

function resolveFetchLimits(limits: Partial<FetchLimits> | undefined): FetchLimits {
  const resolved = { ...DEFAULT_FETCH_LIMITS, ...limits }
  for (const key of ['maxBytes', 'connectTimeoutMs', 'timeoutMs', 'maxRedirects'] as const) {
    const value = resolved[key]
    const min = key === 'maxRedirects' ? 0 : 1
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      throw invalidArgument(`Expected limits.${key} to be an integer >= ${min} but received ${describeReceived(value)}`)
    }
  }
  return resolved
}
