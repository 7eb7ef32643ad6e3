/**
 * An undici connector that resolves the host itself, checks every resolved address against the
 * network policy, and then connects to a checked address (never to the name again).
 *
 * The check lives here, at connect time, rather than in a URL pre-check or a `lookup` hook:
 * - undici does not call `connect.lookup` for literal-IP hosts (postiz PR #1671), so
 *   `http://169.254.169.254/` would skip a lookup-only guard;
 * - a pre-check resolves the name once and the socket resolves it again, and DNS rebinding
 *   answers differently the second time; pinning the checked address closes that gap;
 * - every redirect hop to a new origin opens a new connection, so it passes through here too.
 *
 * @module network/pinned-connector
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { buildConnector } from 'undici'
import { ConnectRefusal } from './connect-refusal.js'
import { isAddressAllowed, type NetworkPolicy } from './policy.js'

export { ConnectRefusal }

/** The default resolver: every A and AAAA answer, in resolver order. */
export async function defaultLookup(hostname: string): Promise<Array<{ address: string; family: 4 | 6 }>> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true })
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
}

/**
 * Builds the connector for one undici `Agent`. `connectTimeoutMs` covers name resolution and
 * the TCP/TLS handshake of each attempt.
 *
 * @example
 * new Agent({ connect: createPinnedConnector(policy, 5_000) })
 */
export function createPinnedConnector(policy: NetworkPolicy, connectTimeoutMs: number): buildConnector.connector {
  // undici's own connector does the TCP/TLS work and the handshake timeout; we only choose the
  // address it dials.
  const dial = buildConnector({ timeout: connectTimeoutMs, ...(policy.ca ? { ca: policy.ca } : {}) })
  const resolve = policy.lookup ?? defaultLookup

  return (options, callback) => {
    resolveAllowedAddresses(options.hostname, policy, resolve, connectTimeoutMs).then(
      (addresses) => dialInOrder(addresses, 0),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    )

    function dialInOrder(addresses: string[], index: number): void {
      dial(
        {
          ...options,
          hostname: addresses[index]!,
          // TLS must verify the certificate for the name in the URL, not for the IP we dial.
          // SNI never carries an IP literal (RFC 6066), so an IP URL sends none.
          servername: isIP(options.hostname) === 0 ? options.hostname.replace(/\.$/, '') : undefined,
        },
        (error, socket) => {
          if (error === null) return callback(null, socket)
          // Try the next checked address (e.g. IPv4 after an unreachable IPv6); each one is
          // bounded by the connect timeout and the whole fetch by its total timeout.
          if (index + 1 < addresses.length) return dialInOrder(addresses, index + 1)
          callback(error, null)
        },
      )
    }
  }
}

/**
 * The one message for a host name that does not resolve and for one that resolves to a blocked
 * address: whoever controls an image URL (any render-key holder) must not learn from our
 * errors which internal names exist. `details.reason` and the cause still tell them apart for
 * the operator's logs, never in a response.
 */
function unreachableHost(hostname: string): string {
  return `the host ${hostname} does not resolve to an address allowed by the network policy`
}

async function resolveAllowedAddresses(
  hostname: string,
  policy: NetworkPolicy,
  resolve: NonNullable<NetworkPolicy['lookup']>,
  timeoutMs: number,
): Promise<string[]> {
  // Literal IPs are checked as they are: no resolver is involved, and no packet is sent.
  if (isIP(hostname) !== 0) {
    if (!isAddressAllowed(hostname, policy)) {
      throw new ConnectRefusal('blocked_address', `the address ${hostname} is not allowed by the network policy`, hostname)
    }
    return [hostname]
  }

  let answers: Array<{ address: string; family: 4 | 6 }>
  let timer: NodeJS.Timeout | undefined
  try {
    answers = await Promise.race([
      resolve(hostname),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ConnectRefusal('timeout', `could not resolve ${hostname} within ${timeoutMs} ms`)), timeoutMs)
      }),
    ])
  } catch (error) {
    if (error instanceof ConnectRefusal) throw error
    throw new ConnectRefusal('dns_failure', unreachableHost(hostname), undefined, { cause: error })
  } finally {
    clearTimeout(timer)
  }

  if (!Array.isArray(answers) || answers.length === 0) {
    throw new ConnectRefusal('dns_failure', unreachableHost(hostname))
  }
  // Every answer must pass, not just the one we would dial: a name that mixes public and
  // internal answers is refused outright. The internal address is not named in the message,
  // because split-horizon DNS would otherwise leak internal addressing to the caller.
  for (const { address } of answers) {
    if (typeof address !== 'string' || !isAddressAllowed(address, policy)) {
      throw new ConnectRefusal('blocked_address', unreachableHost(hostname))
    }
  }
  return answers.map(({ address }) => address)
}
