// Many instances, one Redis and one S3 bucket (docs/serve.md, "More than one instance"): two servers started
// as `litho serve` starts them (startLithoServer, backends from LITHO_* variables) share the
// quota exactly, and files stored by one are served by the other. Needs the real Redis on
// 127.0.0.1:6379; the S3 server (s3rver, from npm) is started here.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRenderKey, hashPassword } from '@litho/auth-adapters'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLithoServer, type LithoServer } from '../src/server.js'
import { Browser } from './_browser.js'
import { Receiver } from './_receiver.js'
import { seedSignedInUser } from './_serve-oauth.js'
import { SMALL_DESIGN, sniff } from './_harness.js'
import { deleteRedisKeys } from './_redis.js'

const root = mkdtempSync(join(tmpdir(), 'litho-scale-out-'))
const BUCKET = 'litho-scale-out'
const prefix = `litho-test:${randomBytes(6).toString('hex')}`
let s3: S3rver
let env: Record<string, string>
const servers: LithoServer[] = []

beforeAll(async () => {
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(root, 's3'), configureBuckets: [{ name: BUCKET }] })
  const { port } = await s3.run()
  env = {
    LITHO_REDIS_URL: 'redis://127.0.0.1:6379',
    LITHO_REDIS_PREFIX: prefix,
    LITHO_URL_SIGNING_KEY: randomBytes(32).toString('base64url'),
    LITHO_S3_BUCKET: BUCKET,
    LITHO_S3_ENDPOINT: `http://127.0.0.1:${port}`,
    LITHO_S3_ACCESS_KEY_ID: 'S3RVER',
    LITHO_S3_SECRET_ACCESS_KEY: 'S3RVER',
  }
}, 60_000)

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  await s3?.close()
  rmSync(root, { recursive: true, force: true })
  await deleteRedisKeys(prefix)
})

async function start(name: string, extraEnv: Record<string, string | undefined> = {}, publicUrl?: string, sharedOutputCache = false): Promise<LithoServer> {
  const server = await startLithoServer({ dataDir: join(root, name), port: 0, threads: 1, env: { ...env, ...extraEnv }, log: () => {}, ...(publicUrl ? { publicUrl } : {}), ...(sharedOutputCache ? { outputCache: { shared: true } } : {}) })
  servers.push(server)
  return server
}

/** A user, a key and a published design, written through one server's stores. */
async function seed(server: LithoServer, plan: 'free' | 'pro'): Promise<{ userId: string; key: string; code: string }> {
  const now = new Date().toISOString()
  const userId = `u_${randomBytes(8).toString('base64url')}`
  await server.backends.accounts.createUser({ id: userId, email: `${userId.toLowerCase()}@example.com`, passwordHash: 'x', plan, createdAt: now, updatedAt: now })
  const key = createRenderKey()
  await server.backends.accounts.createKey({ id: key.id, userId, name: 'k', hash: key.hash, prefix: key.displayPrefix, active: true, createdAt: now, lastUsedAt: null })
  const code = randomBytes(16).toString('base64url')
  await server.backends.designs.create({ id: `d_${randomBytes(8).toString('base64url')}`, ownerId: userId, name: 'small', renderCode: code, design: SMALL_DESIGN, draft: null, createdAt: now, updatedAt: now })
  return { userId, key: key.secret, code }
}

describe('two instances on one Redis and one S3 bucket', () => {
  it('hold the quota exactly across both: 130 renders against a limit of 100 grant exactly 100', async () => {
    const [a, b] = await Promise.all([start('a'), start('b')])
    expect(a.backends.describe.join('\n')).toMatch(/meter: redis/)
    expect(a.backends.describe.join('\n')).toMatch(/files: s3/)
    const { userId, key, code } = await seed(a, 'free')
    const statuses: number[] = []
    let next = 0
    // 16 requests in flight, alternating instances: more than both pools run, within their queues.
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < 130) {
          const server = next++ % 2 === 0 ? a : b
          const response = await fetch(`${server.url}/v1/${code}?format=png`, { headers: { 'dma-api-key': key } })
          await response.arrayBuffer()
          statuses.push(response.status)
        }
      }),
    )
    expect(statuses.filter((s) => s === 200)).toHaveLength(100)
    expect(statuses.filter((s) => s === 429)).toHaveLength(30)
    const window = new Date().toISOString().slice(0, 7)
    expect(await b.backends.meter.usage({ subject: userId, window })).toBe(100)
  }, 120_000)

  it('a hosted render made by one instance is in the shared bucket, and a signed one too', async () => {
    const [a] = servers
    const { key, code } = await seed(a!, 'pro')
    const hosted = (await (await fetch(`${a!.url}/v1/${code}?format=png&delivery=hosted`, { headers: { 'dma-api-key': key } })).json()) as Record<string, any>
    expect(hosted.url.startsWith(`${env.LITHO_S3_ENDPOINT}/${BUCKET}/`)).toBe(true)
    const file = await fetch(hosted.url)
    expect(file.status).toBe(200)
    expect(sniff(new Uint8Array(await file.arrayBuffer()))).toBe('png')
    const signed = (await (await fetch(`${a!.url}/v1/${code}?delivery=signed&expiresIn=5`, { headers: { 'dma-api-key': key } })).json()) as Record<string, any>
    expect(signed.url).toMatch(/X-Amz-Signature=/)
    expect(signed.url).toMatch(/X-Amz-Expires=300/)
    expect((await fetch(signed.url)).status).toBe(200)
  })
})

describe('two instances on one Redis, files on Redis (app-served)', () => {
  it('a hosted or signed URL made by one instance is served by the other', async () => {
    // Both answer to one public address, as behind a load balancer.
    const shared = 'http://render.lb.test'
    const noS3 = { LITHO_S3_BUCKET: undefined, LITHO_S3_ENDPOINT: undefined }
    const [c, d] = await Promise.all([start('c', noS3, shared), start('d', noS3, shared)])
    expect(c.backends.describe.join('\n')).toMatch(/files: redis/)
    const { key, code } = await seed(c, 'pro')
    const viaD = (url: string) => fetch(url.replace(shared, `http://127.0.0.1:${d.port}`))
    for (const delivery of ['hosted', 'signed']) {
      const made = await fetch(`http://127.0.0.1:${c.port}/v1/${code}?format=webp&delivery=${delivery}`, { headers: { 'dma-api-key': key } })
      const body = (await made.json()) as Record<string, any>
      expect(body.url.startsWith(`${shared}/files/`)).toBe(true)
      const served = await viaD(body.url)
      expect(served.status).toBe(200)
      expect(served.headers.get('content-type')).toBe('image/webp')
      expect(sniff(new Uint8Array(await served.arrayBuffer()))).toBe('webp')
      if (delivery === 'signed') expect((await viaD(body.url.split('?')[0])).status).toBe(403)
    }
  }, 60_000)
})

describe('two instances on one Redis behind one public address: the authorization server', () => {
  it('redeems an authorization code exactly once across both, and each accepts the tokens of the other', async () => {
    const publicUrl = 'http://litho.test'
    const [a, b] = await Promise.all([start('oauth-a', {}, publicUrl), start('oauth-b', {}, publicUrl)])
    expect(a.orgId).toBe(b.orgId)
    expect(a.backends.describe.join('\n')).toMatch(/oauth state: redis/)
    const via = (server: LithoServer) => (url: string, init?: RequestInit) => fetch(url.replace(publicUrl, `http://127.0.0.1:${server.port}`), init)
    const { userId } = await seed(a, 'pro')
    const user = (await a.backends.accounts.getUser(userId))!
    await a.backends.accounts.updateUser({ ...user, passwordHash: await hashPassword('pw-1234567890', { N: 2 ** 10, r: 8, p: 1 }) })
    const redirectUri = 'http://127.0.0.1:9999/cb'
    const registered = await via(a)(`${publicUrl}/api/v1/auth/oauth2/register?org=${a.orgId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }) })
    const { client_id } = (await registered.json()) as { client_id: string }
    const verifier = randomBytes(32).toString('base64url')
    const challenge = (await import('node:crypto')).createHash('sha256').update(verifier).digest('base64url')
    const authorize = new URL(`${publicUrl}/api/v1/auth/oauth2/authorize`)
    for (const [k, v] of Object.entries({ client_id, redirect_uri: redirectUri, response_type: 'code', scope: 'read write', state: 's', code_challenge: challenge, code_challenge_method: 'S256', resource: publicUrl })) authorize.searchParams.set(k, v)
    // Signed in on b (the client was registered on a): a load balancer sends requests anywhere.
    const redirect = await new Browser(via(b)).authorize(authorize.href, { email: user.email, password: 'pw-1234567890' })
    const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!
    const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id, code_verifier: verifier })
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => via(i % 2 ? a : b)(`${publicUrl}/api/v1/auth/oauth2/token?org=${a.orgId}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })),
    )
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 400)).toHaveLength(11)
    const winner = responses[statuses.indexOf(200)]!
    const { access_token } = (await winner.json()) as { access_token: string }
    // The replays revoked what the code issued (RFC 6749 §4.1.2), on both instances.
    for (const server of [a, b]) expect((await via(server)(`${publicUrl}/designs/v2`, { headers: { authorization: `Bearer ${access_token}` } })).status).toBe(401)
  }, 60_000)

  it('accepts on one instance the tokens the other issued', async () => {
    const publicUrl = 'http://litho.test'
    const [a, b] = await Promise.all([start('oauth-c', {}, publicUrl), start('oauth-d', {}, publicUrl)])
    const via = (server: LithoServer) => (url: string, init?: RequestInit) => fetch(url.replace(publicUrl, `http://127.0.0.1:${server.port}`), init)
    const { userId } = await seed(a, 'pro')
    const user = (await a.backends.accounts.getUser(userId))!
    await a.backends.accounts.updateUser({ ...user, passwordHash: await hashPassword('pw-1234567890', { N: 2 ** 10, r: 8, p: 1 }) })
    const redirectUri = 'http://127.0.0.1:9999/cb'
    const { client_id } = (await (await via(a)(`${publicUrl}/api/v1/auth/oauth2/register?org=${a.orgId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }) })).json()) as { client_id: string }
    const verifier = randomBytes(32).toString('base64url')
    const challenge = (await import('node:crypto')).createHash('sha256').update(verifier).digest('base64url')
    const authorize = new URL(`${publicUrl}/api/v1/auth/oauth2/authorize`)
    for (const [k, v] of Object.entries({ client_id, redirect_uri: redirectUri, response_type: 'code', state: 's', code_challenge: challenge, code_challenge_method: 'S256' })) authorize.searchParams.set(k, v)
    const redirect = await new Browser(via(a)).authorize(authorize.href, { email: user.email, password: 'pw-1234567890' })
    const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!
    const tokens = (await (await via(a)(`${publicUrl}/api/v1/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id, code_verifier: verifier }) })).json()) as { access_token: string; refresh_token: string }
    const list = await via(b)(`${publicUrl}/designs/v2`, { headers: { authorization: `Bearer ${tokens.access_token}` } })
    expect(list.status).toBe(200)
    expect(((await list.json()) as { docs: unknown[] }).docs).toHaveLength(1)
    const refreshed = await via(b)(`${publicUrl}/api/v1/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id }) })
    expect(refreshed.status).toBe(200)
  }, 60_000)
})

describe('two instances on one Redis: export jobs on BullMQ', () => {
  it('run each job exactly once between them, with one webhook delivery each', async () => {
    const publicUrl = 'http://litho.test'
    const receiver = new Receiver()
    await receiver.start()
    try {
      // Their own key space: the servers of the other cases (which may not reach loopback) must
      // not take these jobs from the shared queue.
      const jobEnv = { LITHO_ALLOW_NETWORKS: '127.0.0.0/8', LITHO_ALLOW_HTTP: '1', LITHO_REDIS_PREFIX: `${prefix}:jobs-case` }
      const [a, b] = await Promise.all([start('jobs-a', jobEnv, publicUrl), start('jobs-b', jobEnv, publicUrl)])
      expect(a.backends.describe.join('\n')).toMatch(/job queue: bullmq/)
      const via = (server: LithoServer) => (url: string, init?: RequestInit) => fetch(url.replace(publicUrl, `http://127.0.0.1:${server.port}`), init)
      const { userId, token } = await seedSignedInUser(a, via(a), publicUrl, Browser)
      const now = new Date().toISOString()
      const designId = `d_${randomBytes(8).toString('base64url')}`
      await a.backends.designs.create({ id: designId, ownerId: userId, name: 'small', renderCode: randomBytes(16).toString('base64url'), design: SMALL_DESIGN, draft: null, createdAt: now, updatedAt: now })
      receiver.secret = ((await (await via(b)(`${publicUrl}/settings/webhook-secret`, { headers: { authorization: `Bearer ${token}` } })).json()) as { secret: string }).secret
      const ids = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const response = await via(i % 2 ? a : b)(`${publicUrl}/designs/v2/${designId}/export/jobs`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ delivery: 'hosted', webhookUrl: receiver.url }) })
          expect(response.status).toBe(202)
          return ((await response.json()) as { exportId: string }).exportId
        }),
      )
      const poll = async (id: string) => (await (await via(a)(`${publicUrl}/analytics/exports/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { status: string; attempts: number; webhook: { state: string } }
      for (let round = 0; round < 600; round++) {
        const jobs = await Promise.all(ids.map(poll))
        if (jobs.every((job) => job.webhook.state === 'delivered')) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const jobs = await Promise.all(ids.map(poll))
      expect(jobs.every((job) => job.status === 'succeeded' && job.attempts === 1), JSON.stringify(jobs.map((j) => [j.status, j.attempts, j.webhook]))).toBe(true)
      const delivered = receiver.deliveries.map((d) => (d.verified as { exportId: string }).exportId)
      expect(delivered.sort()).toEqual([...ids].sort())
      expect(await a.backends.meter.usage({ subject: userId, window: new Date().toISOString().slice(0, 7) })).toBe(12)
    } finally {
      await receiver.close()
    }
  }, 90_000)
})

describe('two instances on one Redis and one S3 bucket: what one changes, the other serves at once', () => {
  const publicUrl = 'http://litho.test'
  const via = (server: LithoServer) => (url: string, init?: RequestInit) => fetch(url.replace(publicUrl, `http://127.0.0.1:${server.port}`), init)
  // One pair for both cases, output caches on (the shared tier in S3).
  let pair: Promise<LithoServer[]> | undefined
  const both = () => (pair ??= Promise.all([start('fresh-a', {}, publicUrl, true), start('fresh-b', {}, publicUrl, true)]))

  it('a render key created on one renders on the other; revoked on one, the other refuses it on the next request', async () => {
    const [a, b] = (await both()) as [LithoServer, LithoServer]
    const { userId, token } = await seedSignedInUser(a, via(a), publicUrl, Browser)
    const now = new Date().toISOString()
    const code = randomBytes(16).toString('base64url')
    await a.backends.designs.create({ id: `d_${randomBytes(8).toString('base64url')}`, ownerId: userId, name: 'small', renderCode: code, design: SMALL_DESIGN, draft: null, createdAt: now, updatedAt: now })
    const auth = { authorization: `Bearer ${token}` }
    const created = await via(a)(`${publicUrl}/settings/api-keys`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'made on a' }) })
    expect(created.status).toBe(201)
    const { _id, key } = (await created.json()) as { _id: string; key: string }
    const onB = await via(b)(`${publicUrl}/v1/${code}?format=png`, { headers: { 'dma-api-key': key } })
    expect(onB.status).toBe(200)
    expect(sniff(new Uint8Array(await onB.arrayBuffer()))).toBe('png')
    // b has just used (and could have kept) the key: a revocation on a must still stop it.
    expect((await via(a)(`${publicUrl}/settings/api-keys/${_id}`, { method: 'DELETE', headers: auth })).status).toBe(200)
    const refused = await via(b)(`${publicUrl}/v1/${code}?format=png`, { headers: { 'dma-api-key': key } })
    expect(refused.status).toBe(401)
  }, 60_000)

  it('a design published on one changes the other\'s very next render: new ETag, new bytes, the old ETag no longer matches (output caches on, shared tier in S3)', async () => {
    const [a, b] = (await both()) as [LithoServer, LithoServer]
    const { userId, token } = await seedSignedInUser(a, via(a), publicUrl, Browser)
    const key = createRenderKey()
    const now = new Date().toISOString()
    await a.backends.accounts.createKey({ id: key.id, userId, name: 'k', hash: key.hash, prefix: key.displayPrefix, active: true, createdAt: now, lastUsedAt: null })
    const designId = `d_${randomBytes(8).toString('base64url')}`
    const code = randomBytes(16).toString('base64url')
    await a.backends.designs.create({ id: designId, ownerId: userId, name: 'small', renderCode: code, design: SMALL_DESIGN, draft: null, createdAt: now, updatedAt: now })
    const render = async (server: LithoServer, headers: Record<string, string> = {}) => {
      const response = await via(server)(`${publicUrl}/v1/${code}?format=png`, { headers: { 'dma-api-key': key.secret, ...headers } })
      return { status: response.status, etag: response.headers.get('etag'), bytes: Buffer.from(await response.arrayBuffer()) }
    }
    // Both instances have rendered (and cached: output cache, validated document, static layers) the first version.
    const first = await render(b)
    expect(first.status).toBe(200)
    expect((await render(a)).etag).toBe(first.etag)
    expect((await render(b, { 'if-none-match': first.etag! })).status).toBe(304)
    // A static part changes (the background: a cached static layer) and is published, on a.
    const published = await via(a)(`${publicUrl}/designs/v2/${designId}`, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ patch: { background: '#b91c1c' }, publish: true }) })
    expect(published.status).toBe(200)
    const second = await render(b, { 'if-none-match': first.etag! })
    expect(second.status).toBe(200)
    expect(second.etag).not.toBe(first.etag)
    expect(second.bytes.equals(first.bytes)).toBe(false)
    expect((await render(a)).bytes.equals(second.bytes)).toBe(true)
  }, 60_000)
})
