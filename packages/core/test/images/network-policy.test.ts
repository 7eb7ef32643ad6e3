import { afterEach, describe, expect, it, vi } from 'vitest'
import { isAddressAllowed, networkPolicyFromEnv, type NetworkPolicy } from '../../src/render/images/index.js'

const strict: NetworkPolicy = { allowHttp: false, allowNetworks: [] }

describe('isAddressAllowed › refused by default', () => {
  const refused: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback, end of 127/8'],
    ['0.0.0.0', 'unspecified (CVE-2025-24354)'],
    ['0.1.2.3', '"this network" 0/8'],
    ['169.254.169.254', 'link-local metadata'],
    ['10.0.0.1', 'RFC 1918'],
    ['172.16.0.1', 'RFC 1918'],
    ['172.31.255.255', 'RFC 1918, end of 172.16/12'],
    ['192.168.1.1', 'RFC 1918'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT, end of 100.64/10'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast (SSDP)'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved 240/4'],
    ['192.0.0.170', 'IETF protocol assignments (NAT64 discovery)'],
    ['192.0.2.1', 'TEST-NET-1'],
    ['198.51.100.1', 'TEST-NET-2'],
    ['203.0.113.1', 'TEST-NET-3'],
    ['198.18.0.1', 'benchmarking'],
    ['::', 'IPv6 unspecified'],
    ['::1', 'IPv6 loopback'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with zone'],
    ['febf::1', 'IPv6 link-local, end of fe80::/10'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fec0::1', 'deprecated site-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['100::1', 'discard prefix'],
    ['2001:db8::1', 'documentation'],
    ['2001:2::1', 'IPv6 benchmarking'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata (hex form)'],
    ['::ffff:0:10.0.0.1', 'IPv4-translated private'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
    ['64:ff9b::10.0.0.1', 'NAT64 of a private address'],
    ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2002:a9fe:a9fe::1', '6to4 of the metadata address'],
    ['2001:0:808:808::f5ff:fffe', 'Teredo with a private client (10.0.0.1)'],
    ['2001:0:a00:1::f7f7:f7f7', 'Teredo with a private server (10.0.0.1)'],
    ['4000::1', 'outside 2000::/3'],
    ['not-an-ip', 'not an address'],
    ['', 'empty'],
    ['localhost', 'a name, not an address'],
  ]
  for (const [address, why] of refused) {
    it(`refuses ${address || '""'} (${why})`, () => {
      expect(isAddressAllowed(address, strict)).toBe(false)
    })
  }
})

describe('isAddressAllowed › public addresses', () => {
  const allowed = [
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255', // just below CGNAT
    '172.32.0.1', // just above 172.16/12
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001:0:808:808::f7f7:f7f7', // Teredo: server 8.8.8.8, client 8.8.8.8
  ]
  for (const address of allowed) {
    it(`allows ${address}`, () => {
      expect(isAddressAllowed(address, strict)).toBe(true)
    })
  }
})

describe('isAddressAllowed › allowNetworks', () => {
  const policy: NetworkPolicy = { allowHttp: false, allowNetworks: ['127.0.0.2/32', '10.1.0.0/16', '::1/128'] }

  it('allows addresses inside a listed CIDR, including their IPv4-mapped form', () => {
    expect(isAddressAllowed('127.0.0.2', policy)).toBe(true)
    expect(isAddressAllowed('10.1.200.3', policy)).toBe(true)
    expect(isAddressAllowed('::ffff:10.1.200.3', policy)).toBe(true)
    expect(isAddressAllowed('::1', policy)).toBe(true)
  })

  it('still refuses neighbours outside the listed CIDRs', () => {
    expect(isAddressAllowed('127.0.0.3', policy)).toBe(false)
    expect(isAddressAllowed('127.0.0.1', policy)).toBe(false)
    expect(isAddressAllowed('10.2.0.1', policy)).toBe(false)
    expect(isAddressAllowed('::2', policy)).toBe(false)
  })

  it('throws a coded TypeError for a malformed CIDR', () => {
    expect(() => isAddressAllowed('8.8.8.8', { allowHttp: false, allowNetworks: ['10.0.0.0/33'] })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE', message: 'Expected policy.allowNetworks[0] to be a CIDR such as "10.1.2.0/24" or "::1/128" but received "10.0.0.0/33"' }),
    )
  })
})

describe('networkPolicyFromEnv', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
  })

  it('is strict when nothing is set', () => {
    expect(networkPolicyFromEnv({})).toEqual({ allowHttp: false, allowNetworks: [] })
  })

  it('reads LITHO_ALLOW_HTTP and LITHO_ALLOW_NETWORKS', () => {
    expect(networkPolicyFromEnv({ LITHO_ALLOW_HTTP: '1', LITHO_ALLOW_NETWORKS: ' 127.0.0.0/8, ::1/128 ,,10.0.0.5' })).toEqual({
      allowHttp: true,
      allowNetworks: ['127.0.0.0/8', '::1/128', '10.0.0.5/32'],
    })
    expect(networkPolicyFromEnv({ LITHO_ALLOW_HTTP: 'true' }).allowHttp).toBe(true)
    expect(networkPolicyFromEnv({ LITHO_ALLOW_HTTP: '0' }).allowHttp).toBe(false)
  })

  it('defaults to process.env', () => {
    vi.stubEnv('LITHO_ALLOW_HTTP', '1')
    vi.stubEnv('LITHO_ALLOW_NETWORKS', '192.168.0.0/16')
    expect(networkPolicyFromEnv()).toEqual({ allowHttp: true, allowNetworks: ['192.168.0.0/16'] })
  })

  it('refuses values it does not understand instead of guessing', () => {
    expect(() => networkPolicyFromEnv({ LITHO_ALLOW_HTTP: 'yes' })).toThrow('Expected LITHO_ALLOW_HTTP to be 1 or 0 but received "yes"')
    expect(() => networkPolicyFromEnv({ LITHO_ALLOW_NETWORKS: '127.0.0.0/8,internal' })).toThrow(
      'Expected an entry of LITHO_ALLOW_NETWORKS to be a CIDR such as "10.1.2.0/24" or "::1/128" but received "internal"',
    )
  })

  it('produces a policy that isAddressAllowed honours', () => {
    const policy = networkPolicyFromEnv({ LITHO_ALLOW_NETWORKS: '127.0.0.0/8' })
    expect(isAddressAllowed('127.0.0.3', policy)).toBe(true)
    expect(isAddressAllowed('10.0.0.1', policy)).toBe(false)
  })
})
