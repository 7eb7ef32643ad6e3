/**
 * The refusal of the SSRF guard (network/pinned-connector), in a file of its own so that code
 * which only reads failures (classifyConnectFailure) need not load undici.
 *
 * @module network/connect-refusal
 */

/** Why the connector refused or failed, before any socket was opened. */
export class ConnectRefusal extends Error {
  override readonly name = 'ConnectRefusal'
  constructor(
    readonly reason: 'blocked_address' | 'dns_failure' | 'timeout',
    message: string,
    /** The literal address refused, when the URL named one (safe to echo: the caller wrote it). */
    readonly address?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}
