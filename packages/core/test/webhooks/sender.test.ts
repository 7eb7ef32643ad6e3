// One webhook delivery attempt against a real local receiver (node:http on 127.0.0.1): every
// delivery is verified by the `standardwebhooks` package itself (the cross-implementation check),
// and the network rules of docs/webhooks.md (no redirects, 15 s, no internal addresses) are checked by counting the TCP
// connections the receiver accepts: a refused delivery must not open one.
import { createHmac } from 'node:crypto'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { rootCertificates } from 'node:tls'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { BLOCKED_LITERAL_URLS } from '../_blocked-literals.js'
import { throwawayTls } from '../_throwaway-tls.js'
import { networkPolicyFromEnv, type NetworkPolicy } from '../../src/render/images/index.js'
import { DEFAULT_WEBHOOK_TIMEOUT_MS, createWebhookSender, generateWebhookSecret, webhookUrlProblem, type WebhookSendRequest } from '../../src/webhooks/index.js'
import { startReceiver, type Receiver, type Respond } from './receiver.js'

/** Loopback may be reached over plain http: the policy the tests deliver with. */
const LOOPBACK: NetworkPolicy = { allowHttp: true, allowNetworks: ['127.0.0.0/8'] }
/** http allowed, but no exception to the address rules. */
const HTTP_ONLY: NetworkPolicy = { allowHttp: true, allowNetworks: [] }

const secret = generateWebhookSecret()
const payload = { type: 'export.completed', exportId: 'exp_1', status: 'succeeded', note: 'héllo ✓' }

const receivers: Receiver[] = []
async function receiver(respond?: Respond): Promise<Receiver> {
  const started = await startReceiver(respond)
  receivers.push(started)
  return started
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()))
})

const request = (url: string, extra: Partial<WebhookSendRequest> = {}): WebhookSendRequest => ({ url, secret, id: 'evt_1', payload, ...extra })

describe('createWebhookSender › delivery', () => {
  it('POSTs the JSON body with Standard Webhooks headers that standardwebhooks verifies', async () => {
    const r = await receiver()
    const delivery = await createWebhookSender({ policy: LOOPBACK }).send(request(`${r.origin}/hooks?x=1`))
    expect(delivery).toMatchObject({ ok: true, status: 204 })
    expect(delivery.error).toBeUndefined()
    expect(Number.isInteger(delivery.durationMs) && delivery.durationMs >= 0).toBe(true)
    expect(r.requests).toHaveLength(1)
    const got = r.requests[0]!
    expect(got.method).toBe('POST')
    expect(got.url).toBe('/hooks?x=1')
    expect(got.body).toBe(JSON.stringify(payload))
    expect(got.headers['content-type']).toBe('application/json')
    expect(got.headers['user-agent']).toBe('Litho-Webhooks/1')
    expect(got.headers['webhook-id']).toBe('evt_1')
    expect(got.headers['webhook-timestamp']).toMatch(/^\d+$/)
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5)
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/)
    // The cross-implementation check: the reference library accepts what we sent.
    expect(new Webhook(secret).verify(got.body, got.headers)).toEqual(payload)
  })

  it('any 2xx is ok; the user agent can be set', async () => {
    const r = await receiver((_req, res) => res.writeHead(202).end('queued'))
    const delivery = await createWebhookSender({ policy: LOOPBACK, userAgent: 'Acme-Hooks/2' }).send(request(r.origin))
    expect(delivery).toMatchObject({ ok: true, status: 202 })
    expect(r.requests[0]!.headers['user-agent']).toBe('Acme-Hooks/2')
  })

  it('the signature is HMAC-SHA256 over `${id}.${timestamp}.${body}` (independent check, and the Standard Webhooks vector)', async () => {
    // The Standard Webhooks known-answer vector, through the package we sign with.
    const vector = new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330_000), '{"test": 2432232314}')
    expect(vector).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=')

    const r = await receiver()
    const now = new Date(1614265330_999)
    await createWebhookSender({ policy: LOOPBACK }).send(request(r.origin, { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', now, payload: { test: 2432232314 } }))
    const got = r.requests[0]!
    expect(got.headers['webhook-timestamp']).toBe('1614265330')
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
    const expected = createHmac('sha256', key).update(`msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.${got.body}`).digest('base64')
    expect(got.headers['webhook-signature']).toBe(`v1,${expected}`)
  })

  it('the signature changes with the secret, and a tampered body or another secret fails verification', async () => {
    const r = await receiver()
    const sender = createWebhookSender({ policy: LOOPBACK })
    const other = generateWebhookSecret()
    const now = new Date()
    await sender.send(request(r.origin, { now }))
    await sender.send(request(r.origin, { now, secret: other }))
    const [first, second] = r.requests
    expect(first!.body).toBe(second!.body)
    expect(first!.headers['webhook-timestamp']).toBe(second!.headers['webhook-timestamp'])
    expect(first!.headers['webhook-signature']).not.toBe(second!.headers['webhook-signature'])

    expect(() => new Webhook(other).verify(first!.body, first!.headers)).toThrow(WebhookVerificationError)
    expect(new Webhook(other).verify(second!.body, second!.headers)).toEqual(payload)
    const tampered = first!.body.replace('exp_1', 'exp_2')
    expect(() => new Webhook(secret).verify(tampered, first!.headers)).toThrow(WebhookVerificationError)
    expect(() => new Webhook(secret).verify(`${first!.body} `, first!.headers)).toThrow(WebhookVerificationError)
    expect(() => new Webhook(secret).verify(JSON.stringify(JSON.parse(first!.body), null, 1), first!.headers)).toThrow(WebhookVerificationError)
  })

  it('a retry keeps the webhook-id; its timestamp and signature are those of the new attempt', async () => {
    const r = await receiver()
    const sender = createWebhookSender({ policy: LOOPBACK })
    const t = Date.now()
    await sender.send(request(r.origin, { id: 'evt_retry', now: new Date(t - 60_000) }))
    await sender.send(request(r.origin, { id: 'evt_retry', now: new Date(t) }))
    const [first, second] = r.requests
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id'])
    expect(Number(second!.headers['webhook-timestamp']) - Number(first!.headers['webhook-timestamp'])).toBe(60)
    expect(second!.headers['webhook-signature']).not.toBe(first!.headers['webhook-signature'])
    for (const got of [first!, second!]) expect(new Webhook(secret).verify(got.body, got.headers)).toEqual(payload)
  })

  it('the response body is discarded: a 200 whose body never ends is still a prompt success', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('x'.repeat(64 * 1024))
      // …and never end.
    })
    const delivery = await createWebhookSender({ policy: LOOPBACK, timeoutMs: 2_000 }).send(request(r.origin))
    expect(delivery).toMatchObject({ ok: true, status: 200 })
    expect(delivery.durationMs).toBeLessThan(1_500)
  })
})

describe('createWebhookSender › failures are reported, not thrown', () => {
  it('500 → ok false, status 500', async () => {
    const r = await receiver((_req, res) => res.writeHead(500).end('boom'))
    const delivery = await createWebhookSender({ policy: LOOPBACK }).send(request(r.origin))
    expect(delivery).toMatchObject({ ok: false, status: 500, reason: 'http_status', error: 'HTTP 500' })
    expect(r.requests).toHaveLength(1)
  })

  it('4xx (410, 429) → ok false with the status, for the caller to act on', async () => {
    for (const status of [400, 410, 429]) {
      const r = await receiver((_req, res) => res.writeHead(status, { 'retry-after': '120' }).end())
      expect(await createWebhookSender({ policy: LOOPBACK }).send(request(r.origin))).toMatchObject({ ok: false, status, reason: 'http_status' })
    }
  })

  it('a 302 is not followed: the redirect target sees nothing, status 302 is recorded', async () => {
    const target = await receiver()
    for (const status of [301, 302, 303, 307, 308]) {
      const r = await receiver((_req, res) => res.writeHead(status, { location: `${target.origin}/stolen` }).end())
      const delivery = await createWebhookSender({ policy: LOOPBACK }).send(request(r.origin))
      expect(delivery).toMatchObject({ ok: false, status, reason: 'redirect' })
      expect(delivery.error).toMatch(new RegExp(`^HTTP ${status}: redirects are not followed`))
      expect(r.requests).toHaveLength(1)
    }
    expect(target.connections).toBe(0)
    expect(target.requests).toHaveLength(0)
  })

  it('a receiver that never answers → timeout within timeoutMs, and the socket is closed', async () => {
    const r = await receiver(() => {
      // Read the request, never answer.
    })
    const started = performance.now()
    const delivery = await createWebhookSender({ policy: LOOPBACK, timeoutMs: 300 }).send(request(r.origin))
    const took = performance.now() - started
    expect(delivery).toMatchObject({ ok: false, reason: 'timeout', error: 'timeout after 300 ms' })
    expect(delivery.status).toBeUndefined()
    expect(took).toBeGreaterThanOrEqual(290)
    expect(took).toBeLessThan(1_300)
    expect(r.requests).toHaveLength(1)
    await vi.waitFor(() => expect(r.closedConnections).toBe(r.connections), { timeout: 2_000 })
  })

  it('a receiver that accepts the connection but never reads → timeout too', async () => {
    const net = await import('node:net')
    const sockets: import('node:net').Socket[] = []
    const server = net.createServer((socket) => {
      sockets.push(socket)
      socket.pause()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as AddressInfo).port
      const delivery = await createWebhookSender({ policy: LOOPBACK, timeoutMs: 250 }).send(request(`http://127.0.0.1:${port}/`))
      expect(delivery).toMatchObject({ ok: false, reason: 'timeout' })
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  it('a connection error → ok false with a short reason', async () => {
    const r = await receiver()
    const port = r.port
    await r.close()
    receivers.splice(receivers.indexOf(r), 1)
    const delivery = await createWebhookSender({ policy: LOOPBACK }).send(request(`http://127.0.0.1:${port}/`))
    expect(delivery).toMatchObject({ ok: false, reason: 'network', error: 'connection failed (ECONNREFUSED)' })
    expect(delivery.status).toBeUndefined()
  })

  it('a name that does not resolve → dns_failure', async () => {
    const policy: NetworkPolicy = { ...LOOPBACK, lookup: async () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' })) }
    const delivery = await createWebhookSender({ policy }).send(request('http://hooks.invalid/'))
    expect(delivery).toMatchObject({ ok: false, reason: 'dns_failure' })
    expect(delivery.error).toContain('hooks.invalid')
  })
})

describe('createWebhookSender › addresses (SSRF) and schemes', () => {
  it('127.0.0.1 is refused by the default policy, and no connection is made', async () => {
    const r = await receiver()
    // The production default (no env): https only, no exceptions.
    const strict = networkPolicyFromEnv({})
    expect(await createWebhookSender({ policy: strict }).send(request(r.origin))).toMatchObject({ ok: false, reason: 'bad_url' })
    expect(await createWebhookSender({ policy: strict }).send(request(`https://127.0.0.1:${r.port}/`))).toMatchObject({ ok: false, reason: 'blocked_address' })
    // Even with http allowed, loopback stays refused unless listed.
    const delivery = await createWebhookSender({ policy: HTTP_ONLY }).send(request(r.origin))
    expect(delivery).toMatchObject({ ok: false, reason: 'blocked_address' })
    expect(delivery.error).toMatch(/^blocked address: /)
    expect(delivery.status).toBeUndefined()
    expect(r.connections).toBe(0)
  })

  it('127.0.0.1 is delivered to with allowNetworks 127.0.0.0/8 and allowHttp', async () => {
    const r = await receiver()
    expect(await createWebhookSender({ policy: { allowHttp: true, allowNetworks: ['127.0.0.0/8'] } }).send(request(r.origin))).toMatchObject({ ok: true })
    expect(r.requests).toHaveLength(1)
  })

  it('a host name resolving to 127.0.0.1 is refused at connect time (after the lookup, before any packet)', async () => {
    const r = await receiver()
    const lookup = vi.fn(async () => [{ address: '127.0.0.1', family: 4 as const }])
    const delivery = await createWebhookSender({ policy: { ...HTTP_ONLY, lookup } }).send(request(`http://hooks.example.test:${r.port}/`))
    expect(delivery).toMatchObject({ ok: false, reason: 'blocked_address' })
    expect(delivery.error).toContain('hooks.example.test')
    // Split-horizon DNS must not leak: the internal address is not named.
    expect(delivery.error).not.toContain('127.0.0.1')
    expect(lookup).toHaveBeenCalledWith('hooks.example.test')
    expect(r.connections).toBe(0)
  })

  it('a name with one public and one internal answer is refused outright', async () => {
    const r = await receiver()
    const lookup = async () => [
      { address: '93.184.216.34', family: 4 as const },
      { address: '127.0.0.1', family: 4 as const },
    ]
    expect(await createWebhookSender({ policy: { ...HTTP_ONLY, lookup } }).send(request(`http://mixed.example.test:${r.port}/`))).toMatchObject({ ok: false, reason: 'blocked_address' })
    expect(r.connections).toBe(0)
  })

  it('the connection goes to the checked, resolved address (pinned), not to the name again', async () => {
    const r = await receiver()
    const lookup = vi.fn(async () => [{ address: '127.0.0.1', family: 4 as const }])
    const delivery = await createWebhookSender({ policy: { ...LOOPBACK, lookup } }).send(request(`http://hooks.example.test:${r.port}/in`))
    expect(delivery).toMatchObject({ ok: true })
    expect(r.requests[0]!.headers.host).toBe(`hooks.example.test:${r.port}`)
    expect(lookup).toHaveBeenCalledTimes(1)
  })

  it('literal loopback, unspecified, link-local, private and mapped addresses are refused without a packet', async () => {
    const sender = createWebhookSender({ policy: HTTP_ONLY })
    for (const url of BLOCKED_LITERAL_URLS) {
      const delivery = await sender.send(request(url))
      expect(delivery, url).toMatchObject({ ok: false, reason: 'blocked_address' })
    }
  })

  it('https is required unless allowHttp; other schemes, credentials and junk are bad URLs', async () => {
    const r = await receiver()
    const strictButLoopback: NetworkPolicy = { allowHttp: false, allowNetworks: ['127.0.0.0/8'] }
    const sender = createWebhookSender({ policy: strictButLoopback })
    const delivery = await sender.send(request(r.origin))
    expect(delivery).toMatchObject({ ok: false, reason: 'bad_url', error: 'the scheme http: is not allowed (expected https:; to allow http: for local testing, set LITHO_ALLOW_HTTP=1)' })
    for (const url of ['ftp://127.0.0.1/', 'file:///etc/passwd', 'gopher://127.0.0.1/', 'data:,x', 'javascript:alert(1)', '/relative', 'not a url', '']) {
      expect(await sender.send(request(url)), url).toMatchObject({ ok: false, reason: 'bad_url' })
    }
    expect(await createWebhookSender({ policy: LOOPBACK }).send(request(`http://user:pw@127.0.0.1:${r.port}/`))).toMatchObject({
      ok: false,
      reason: 'bad_url',
      error: 'URLs with credentials are not allowed',
    })
    expect(r.connections).toBe(0)
  })

  it('webhookUrlProblem checks a URL at registration time without I/O', () => {
    const strict = networkPolicyFromEnv({})
    expect(webhookUrlProblem('https://hooks.example.com/litho', strict)).toBeUndefined()
    expect(webhookUrlProblem('http://hooks.example.com/litho', strict)).toMatchObject({ reason: 'bad_url' })
    expect(webhookUrlProblem('https://169.254.169.254/', strict)).toMatchObject({ reason: 'blocked_address' })
    expect(webhookUrlProblem('https://[::1]:8443/', strict)).toMatchObject({ reason: 'blocked_address' })
    expect(webhookUrlProblem('https://127.0.0.1/', { allowHttp: false, allowNetworks: ['127.0.0.1'] })).toBeUndefined()
    // Names are only checked at delivery (DNS can change).
    expect(webhookUrlProblem('https://localhost/', strict)).toBeUndefined()
  })
})

describe('createWebhookSender › https', () => {
  let server: https.Server
  let port = 0
  let caPem = ''
  const received: Array<{ headers: Record<string, string>; body: string }> = []

  beforeAll(async () => {
    // A throwaway CA and a leaf certificate for hooks.test.
    const tls = throwawayTls('hooks.test', 'Litho webhook test CA')
    caPem = tls.caPem
    server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') })
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const tlsPolicy = (extra: Partial<NetworkPolicy> = {}): NetworkPolicy => ({
    allowHttp: false,
    allowNetworks: ['127.0.0.1/32'],
    lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    ca: [caPem, ...rootCertificates],
    ...extra,
  })

  it('delivers over https with the certificate checked for the URL host', async () => {
    const delivery = await createWebhookSender({ policy: tlsPolicy() }).send(request(`https://hooks.test:${port}/in`))
    expect(delivery).toMatchObject({ ok: true, status: 200 })
    const got = received.at(-1)!
    expect(new Webhook(secret).verify(got.body, got.headers)).toEqual(payload)
  })

  it('an untrusted certificate is a network failure, not a throw', async () => {
    const delivery = await createWebhookSender({ policy: tlsPolicy({ ca: undefined }) }).send(request(`https://hooks.test:${port}/in`))
    expect(delivery).toMatchObject({ ok: false, reason: 'network' })
  })
})

describe('createWebhookSender › arguments', () => {
  it('defaults to a 15 s timeout', () => {
    expect(DEFAULT_WEBHOOK_TIMEOUT_MS).toBe(15_000)
  })

  it('bad options throw TypeErrors at once', () => {
    expect(() => createWebhookSender(undefined as never)).toThrow(TypeError)
    expect(() => createWebhookSender({} as never)).toThrow(/options\.policy/)
    expect(() => createWebhookSender({ policy: { allowHttp: true, allowNetworks: ['nope'] } })).toThrow(TypeError)
    expect(() => createWebhookSender({ policy: LOOPBACK, timeoutMs: 0 })).toThrow(/timeoutMs/)
    expect(() => createWebhookSender({ policy: LOOPBACK, timeoutMs: 1.5 })).toThrow(/timeoutMs/)
    expect(() => createWebhookSender({ policy: LOOPBACK, userAgent: 'bad\nagent' })).toThrow(/userAgent/)
  })

  it('bad requests reject with TypeErrors (and never echo the secret)', async () => {
    const sender = createWebhookSender({ policy: LOOPBACK })
    const url = 'http://127.0.0.1:9/'
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const cases: Array<[Partial<WebhookSendRequest>, RegExp]> = [
      [{ url: 42 as never }, /url/],
      [{ secret: 'not-a-secret' }, /secret/],
      [{ secret: 'whsec_c2hvcnQ=' }, /24 to 64 bytes/],
      [{ id: 'evt.1' }, /id/],
      [{ id: '' }, /id/],
      [{ id: 'evt 1' }, /id/],
      [{ payload: undefined }, /payload/],
      [{ payload: 10n }, /payload/],
      [{ payload: cyclic }, /payload/],
      [{ now: new Date(Number.NaN) }, /now/],
      [{ now: 1614265330 as never }, /now/],
    ]
    for (const [extra, message] of cases) {
      const error = await sender.send(request(url, extra)).then(() => undefined, (e: unknown) => e)
      expect(error, JSON.stringify(Object.keys(extra))).toBeInstanceOf(TypeError)
      expect((error as TypeError).message).toMatch(message)
      expect((error as TypeError).message).not.toContain('not-a-secret')
    }
    await expect(sender.send(null as never)).rejects.toThrow(TypeError)
  })
})
