// https through the pinned connector: the socket goes to the checked IP, while TLS still
// verifies the certificate for the name in the URL (SNI and identity check).
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { rootCertificates } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LithoError } from '../../src/errors.js'
import { fetchRemote, type NetworkPolicy } from '../../src/render/images/index.js'
import { PUBLIC_HOST } from './fixtures.js'
import { throwawayTls } from '../_throwaway-tls.js'

let server: https.Server
let port = 0
let caPem = ''

beforeAll(async () => {
  // A throwaway CA and a leaf certificate for images.test.
  const tls = throwawayTls('images.test')
  caPem = tls.caPem
  server = https.createServer({ key: tls.key, cert: tls.cert }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end('hello over tls')
  })
  await new Promise<void>((resolve) => server.listen(0, PUBLIC_HOST, resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const policy = (extra: Partial<NetworkPolicy> = {}): NetworkPolicy => ({
  allowHttp: false,
  allowNetworks: [`${PUBLIC_HOST}/32`],
  // Every name resolves to the fixture server, as DNS would.
  lookup: async () => [{ address: PUBLIC_HOST, family: 4 }],
  ca: [caPem, ...rootCertificates],
  ...extra,
})

async function failure(promise: Promise<unknown>): Promise<LithoError> {
  const error = await promise.then(() => undefined, (e: unknown) => e)
  expect(LithoError.isInstance(error), String(error)).toBe(true)
  return error as LithoError
}

describe('fetchRemote over https', () => {
  it('tls › fetches from the pinned address with the certificate checked for the URL host', async () => {
    const result = await fetchRemote(`https://images.test:${port}/a.txt`, { policy: policy() })
    expect(result.bytes.toString()).toBe('hello over tls')
  })

  it('tls › a certificate for another name is refused', async () => {
    const error = await failure(fetchRemote(`https://other.test:${port}/a.txt`, { policy: policy() }))
    expect(error.code).toBe('ERR_IMAGE_FETCH')
    expect(error.details.reason).toBe('network')
  })

  it('tls › a certificate from an untrusted CA is refused', async () => {
    const error = await failure(fetchRemote(`https://images.test:${port}/a.txt`, { policy: policy({ ca: undefined }) }))
    expect(error.details.reason).toBe('network')
  })

  it('tls › an IP literal URL gets no SNI and fails the name check', async () => {
    const error = await failure(fetchRemote(`https://${PUBLIC_HOST}:${port}/a.txt`, { policy: policy() }))
    expect(error.details.reason).toBe('network')
  })

  it('tls › ca must be an array of PEM strings', async () => {
    await expect(fetchRemote(`https://images.test:${port}/a.txt`, { policy: policy({ ca: 'pem' as never }) })).rejects.toThrow(/Expected options\.policy\.ca to be an array of PEM strings/)
  })
})
