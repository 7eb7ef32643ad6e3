/**
 * Which network addresses remote fetches may reach. The default refuses everything that is not
 * a public unicast address, so a design cannot make the renderer read internal services
 * (cloud metadata at 169.254.169.254, admin ports on loopback, the private network).
 *
 * @module network/policy
 */
import { createRequire } from 'node:module'
import type IpAddr from 'ipaddr.js'
import { describeReceived, invalidArgument } from '../_internal/argument-error.js'

/** Where remote fetches may connect; pass the same policy to every fetch of one deployment. */
export interface NetworkPolicy {
  /** Allow plain http: URLs (default false). */
  allowHttp: boolean
  /** CIDRs that may be reached even though they are private/loopback/etc. */
  allowNetworks: string[]
  /** Resolver, injectable for tests; default dns.promises.lookup(host, {all:true}). */
  lookup?: (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>
  /**
   * Certificate authorities (PEM) trusted for https instead of Node's bundled ones; add
   * `tls.rootCertificates` to keep those too. For deployments with an internal CA, and tests.
   * (`NODE_EXTRA_CA_CERTS` adds CAs for the whole process instead.)
   */
  ca?: string[]
}

const require = createRequire(import.meta.url)
let loaded: typeof IpAddr | undefined
// ipaddr.js (CommonJS) is required on first use, synchronously, so that `import '@litho/core'`
// does not load it: only a fetch that connects, or a policy with an allow-list, needs it.
const ipaddr = (): typeof IpAddr => (loaded ??= require('ipaddr.js') as typeof IpAddr)

type Address = IpAddr.IPv4 | IpAddr.IPv6
type Cidr = [Address, number]

/**
 * Reads a policy from `LITHO_ALLOW_HTTP` (`1`/`true` or `0`/`false`) and `LITHO_ALLOW_NETWORKS`
 * (comma-separated CIDRs or single addresses). Unset variables give the strict default.
 *
 * @example
 * const policy = networkPolicyFromEnv({ LITHO_ALLOW_HTTP: '1', LITHO_ALLOW_NETWORKS: '127.0.0.0/8,::1/128' })
 * // { allowHttp: true, allowNetworks: ['127.0.0.0/8', '::1/128'] }
 */
export function networkPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): NetworkPolicy {
  return {
    allowHttp: parseFlag('LITHO_ALLOW_HTTP', env.LITHO_ALLOW_HTTP),
    allowNetworks: parseNetworkList('LITHO_ALLOW_NETWORKS', env.LITHO_ALLOW_NETWORKS),
  }
}

/**
 * True when a fetch may connect to `address` (an IP literal, as resolved). Refuses loopback,
 * unspecified, link-local, private, CGNAT, multicast, reserved/broadcast, benchmarking and
 * documentation ranges, and the IPv4-mapped/NAT64/6to4/Teredo forms of them, unless the address
 * lies in `policy.allowNetworks`. Anything that does not parse as an IP address is refused.
 *
 * @example
 * isAddressAllowed('93.184.216.34', policy) // true
 * isAddressAllowed('::ffff:169.254.169.254', policy) // false
 */
export function isAddressAllowed(address: string, policy: NetworkPolicy): boolean {
  const parsed = parseAddress(address)
  // Fail closed: a string we cannot classify is never connected to.
  if (parsed === undefined) return false
  return isParsedAllowed(parsed, allowedCidrs(policy))
}

/**
 * Throws a coded TypeError unless `policy` is a well-formed {@link NetworkPolicy} (every
 * allowNetworks entry a valid CIDR). Called where a policy is accepted, so misuse fails at once.
 */
export function assertNetworkPolicy(policy: unknown, name = 'policy'): asserts policy is NetworkPolicy {
  const candidate = policy as Partial<NetworkPolicy> | null
  if (typeof candidate !== 'object' || candidate === null) throw invalidArgument(`Expected ${name} to be a NetworkPolicy but received ${describeReceived(policy)}`)
  if (typeof candidate.allowHttp !== 'boolean') throw invalidArgument(`Expected ${name}.allowHttp to be a boolean but received ${describeReceived(candidate.allowHttp)}`)
  if (candidate.ca !== undefined && (!Array.isArray(candidate.ca) || !candidate.ca.every((c) => typeof c === 'string'))) {
    throw invalidArgument(`Expected ${name}.ca to be an array of PEM strings but received ${describeReceived(candidate.ca)}`)
  }
  if (candidate.lookup !== undefined && typeof candidate.lookup !== 'function') {
    throw invalidArgument(`Expected ${name}.lookup to be a function but received ${describeReceived(candidate.lookup)}`)
  }
  allowedCidrs(candidate as NetworkPolicy)
}

function isParsedAllowed(ip: Address, allowed: readonly Cidr[]): boolean {
  if (allowed.some(([network, bits]) => network.kind() === ip.kind() && ip.match(network, bits))) return true
  if (ip.kind() === 'ipv4') return isPublicIPv4(ip as IpAddr.IPv4)

  const v6 = ip as IpAddr.IPv6
  const range = v6.range()
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated) reach the IPv4 host itself through
  // a dual-stack socket, so they get exactly the IPv4 verdict, allow-list included.
  if (range === 'ipv4Mapped' || range === 'rfc6145') return isParsedAllowed(embeddedIPv4(v6, 12), allowed)
  // 64:ff9b::/96 is the well-known NAT64 prefix: the gateway forwards to the embedded IPv4
  // address, so 64:ff9b::a9fe:a9fe is the metadata service. 64:ff9b:1::/48 is local-use NAT64
  // by definition (RFC 8215) and is refused outright.
  if (range === 'rfc6052') return isInWellKnownNat64(v6) && isPublicIPv4(embeddedIPv4(v6, 12))
  // 6to4 (2002:AABB:CCDD::/48) tunnels to the IPv4 address AABB:CCDD.
  if (range === '6to4') return isPublicIPv4(embeddedIPv4(v6, 2))
  // Teredo carries the server IPv4 in bits 32-63 and the client IPv4, inverted, in bits 96-127;
  // a relay would deliver to either, so both must be public.
  if (range === 'teredo') return isPublicIPv4(embeddedIPv4(v6, 4)) && isPublicIPv4(embeddedIPv4(v6, 12, true))
  // Only 2000::/3 is allocated as global unicast; everything outside it (the ::/96
  // IPv4-compatible forms, unallocated space) is refused rather than guessed at.
  return range === 'unicast' && v6.match(...(globalUnicastV6 ??= ipaddr().IPv6.parseCIDR('2000::/3')))
}

// Parsed on first use, as ipaddr.js is loaded.
let globalUnicastV6: [IpAddr.IPv6, number] | undefined
let wellKnownNat64: [IpAddr.IPv6, number] | undefined

function isInWellKnownNat64(ip: IpAddr.IPv6): boolean {
  return ip.match(...(wellKnownNat64 ??= ipaddr().IPv6.parseCIDR('64:ff9b::/96')))
}

/** ipaddr.js names every special-purpose IPv4 block; only the remainder (`unicast`) is public. */
function isPublicIPv4(ip: IpAddr.IPv4): boolean {
  return ip.range() === 'unicast'
}

/** The IPv4 address stored in 4 bytes of an IPv6 address, starting at byte `offset`. */
function embeddedIPv4(ip: IpAddr.IPv6, offset: number, inverted = false): IpAddr.IPv4 {
  const bytes = ip.toByteArray().slice(offset, offset + 4)
  return new (ipaddr().IPv4)(inverted ? bytes.map((byte) => byte ^ 0xff) : bytes)
}

function parseAddress(address: string): Address | undefined {
  if (typeof address !== 'string') return undefined
  // A zone id (fe80::1%eth0) only ever qualifies link-local addresses; the range check sees the
  // address itself.
  try {
    return ipaddr().parse(address)
  } catch {
    return undefined
  }
}

// Parsed allow-lists, per array: policies are long-lived and checked on every connection.
const parsedAllowLists = new WeakMap<readonly string[], Cidr[]>()

function allowedCidrs(policy: NetworkPolicy): Cidr[] {
  const list = policy.allowNetworks
  if (!Array.isArray(list)) throw invalidArgument(`Expected policy.allowNetworks to be an array of CIDRs but received ${describeReceived(list)}`)
  let parsed = parsedAllowLists.get(list)
  // Re-parse when the array was changed in place since it was cached.
  if (parsed === undefined || parsed.length !== list.length) {
    parsed = list.map((entry, index) => parseCidr(entry, `policy.allowNetworks[${index}]`))
    parsedAllowLists.set(list, parsed)
  }
  return parsed
}

function parseCidr(entry: unknown, name: string): Cidr {
  if (typeof entry === 'string') {
    const text = entry.trim()
    try {
      if (text.includes('/')) return ipaddr().parseCIDR(text)
      const ip = ipaddr().parse(text)
      return [ip, ip.kind() === 'ipv4' ? 32 : 128]
    } catch {
      // fall through to the error below
    }
  }
  throw invalidArgument(`Expected ${name} to be a CIDR such as "10.1.2.0/24" or "::1/128" but received ${describeReceived(entry)}`)
}

function parseFlag(name: string, value: string | undefined): boolean {
  const text = value?.trim().toLowerCase() ?? ''
  if (text === '' || text === '0' || text === 'false') return false
  if (text === '1' || text === 'true') return true
  throw invalidArgument(`Expected ${name} to be 1 or 0 but received ${describeReceived(value)}`)
}

function parseNetworkList(name: string, value: string | undefined): string[] {
  const entries = (value ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '')
  return entries.map((entry) => {
    const [network, bits] = parseCidr(entry, `an entry of ${name}`)
    return `${network.toString()}/${bits}`
  })
}
