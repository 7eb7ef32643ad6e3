/**
 * The HTTP client of every outbound request, loaded lazily through `loadHttpClient()`
 * (network/outbound): ofetch over undici, and the guarded connection pool.
 *
 * @module network/http-client
 */
import { createFetch } from 'ofetch'
import { Agent, Headers as UndiciHeaders, fetch as undiciFetch } from 'undici'
import { createPinnedConnector } from './pinned-connector.js'
import type { NetworkPolicy } from './policy.js'

/** The HTTP client of every outbound request: ofetch over undici's fetch (see network/outbound). */
export const outboundFetch = createFetch({
  fetch: undiciFetch as unknown as typeof globalThis.fetch,
  Headers: UndiciHeaders as unknown as typeof globalThis.Headers,
  AbortController,
})

/**
 * A connection pool for one outbound operation: every connection it opens goes through the
 * guard with `policy`, and `connectTimeoutMs` bounds resolution plus handshake. Destroy it when
 * the operation ends, so no socket (and no half-read body) outlives it.
 *
 * @example const agent = openGuardedAgent(policy, 5_000); try { await outboundFetch.raw(url, { dispatcher: agent }) } finally { agent.destroy() }
 */
export function openGuardedAgent(policy: NetworkPolicy, connectTimeoutMs: number): Agent {
  return new Agent({ connect: createPinnedConnector(policy, connectTimeoutMs) })
}
