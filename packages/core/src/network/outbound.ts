/**
 * The one way core reaches the network (remote images and fonts, webhook deliveries): ofetch,
 * over undici, through an Agent whose connector is the SSRF guard (network/pinned-connector),
 * plus the URL rules every outbound request follows and the reading of its failures.
 *
 * Why undici stays beside ofetch: the guard must choose the address a socket dials (resolve,
 * check every answer, dial only a checked one), and only an undici `Agent` with a custom
 * `connect` (built with `buildConnector`) lets code do that. ofetch has no connection layer of
 * its own; it passes the `dispatcher` option through to the `fetch` it wraps, and that `fetch`
 * must be undici's own: Node's bundled fetch may be a different undici version than the Agent.
 *
 * @module network/outbound
 */
import { ConnectRefusal } from './connect-refusal.js'
import type { NetworkPolicy } from './policy.js'

type HttpClient = typeof import('./http-client.js')
let httpClient: Promise<HttpClient> | undefined

/**
 * The HTTP client (ofetch over undici, see network/http-client), loaded on the first outbound
 * request rather than when core is imported: most processes that import core never fetch.
 */
export function loadHttpClient(): Promise<HttpClient> {
  httpClient ??= import('./http-client.js')
  return httpClient
}

/** The environment variable (the `network.allowHttp` option in code) that allows plain http: URLs. */
const HTTP_FLAG = 'LITHO_ALLOW_HTTP'

/**
 * Parses `text` (relative to `base`) and applies the rules of every outbound URL: https:, or
 * http: when `policy.allowHttp`; no credentials. Returns the URL, or the problem as a sentence.
 *
 * @example checkOutboundUrl('ftp://x.test/a', undefined, policy) // 'the scheme ftp: is not allowed (expected https:)'
 */
export function checkOutboundUrl(text: string, base: URL | undefined, policy: NetworkPolicy): URL | string {
  let url: URL
  try {
    url = new URL(text, base)
  } catch {
    return 'expected an absolute https: URL'
  }
  const allowed = policy.allowHttp ? 'https: or http:' : 'https:'
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    // Plain http: is what a local test server speaks: say how to allow it.
    const hint = url.protocol === 'http:' ? `; to allow http: for local testing, set ${HTTP_FLAG}=1` : ''
    return `the scheme ${describeToken(url.protocol)} is not allowed (expected ${allowed}${hint})`
  }
  // user:pass@ has no use for public images or webhooks and is the classic allow-list confusion
  // (https://allowed.example@evil.example/); undici would also forward the credentials.
  if (url.username !== '' || url.password !== '') return 'URLs with credentials are not allowed'
  return url
}

/** Why an outbound request failed before an HTTP answer: what {@link classifyConnectFailure} returns. */
export type ConnectFailure =
  | { reason: 'blocked_address' | 'dns_failure' | 'timeout'; message: string; address?: string }
  | { reason: 'connect_timeout' }
  | { reason: 'network'; code?: string }

/**
 * Reads a failed request's error chain: a refusal of the guard (blocked address, DNS failure,
 * resolution timeout), undici's connect timeout, or another network failure with its code.
 */
export function classifyConnectFailure(error: unknown): ConnectFailure {
  const refusal = findCause(error, (cause): cause is ConnectRefusal => cause instanceof ConnectRefusal)
  if (refusal !== undefined) return { reason: refusal.reason, message: refusal.message, ...(refusal.address === undefined ? {} : { address: refusal.address }) }
  const coded = findCause(error, (cause): cause is Error & { code: string } => typeof (cause as { code?: unknown }).code === 'string')
  if (coded?.code === 'UND_ERR_CONNECT_TIMEOUT') return { reason: 'connect_timeout' }
  return coded === undefined ? { reason: 'network' } : { reason: 'network', code: describeToken(coded.code) }
}

/** The first error in `error`'s cause chain that `match` accepts. */
export function findCause<T extends object>(error: unknown, match: (cause: object) => cause is T): T | undefined {
  let current: unknown = error
  // Causes nest a few levels (ofetch FetchError → TypeError('fetch failed') → ours); bound the
  // walk so a cyclic cause chain cannot loop.
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    if (match(current)) return current
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/** Echoes a short server- or user-supplied token (a scheme, an encoding, an error code) safely. */
export function describeToken(token: string): string {
  const clean = token.replace(/[^\w.:+-]/g, '')
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean
}
