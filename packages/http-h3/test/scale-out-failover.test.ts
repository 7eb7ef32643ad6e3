// An instance killed with SIGKILL while export jobs are queued and in flight (docs/scale-out.md):
// two real `litho serve` processes on one Redis and one S3 bucket (s3rver, started here), with
// the shipped job-queue timings (LITHO_JOB_LOCK_MS, LITHO_JOB_STALLED_CHECK_MS unset). Every job
// completes on the survivor within 30 s of the kill, is rendered and metered once, and its
// webhook is acknowledged exactly once. Needs the real Redis on 127.0.0.1:6379: without it the
// CLI fails and so does this test (it never skips).
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBackends } from '../src/backends.js'
import { createOAuthFromEnv } from '../src/oauth-config.js'
import { CHILD_ENV, CLI } from './_process.js'
import { SMALL_DESIGN } from './_harness.js'
import { deleteRedisKeys } from './_redis.js'

const root = mkdtempSync(join(tmpdir(), 'litho-failover-'))
const prefix = `litho-test:${randomBytes(6).toString('hex')}`
const PUBLIC_URL = 'http://litho.test'
const JOBS = 10
let s3: S3rver
let env: Record<string, string>
const children: ChildProcess[] = []

beforeAll(async () => {
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(root, 's3'), configureBuckets: [{ name: 'litho-failover' }] })
  const { port } = await s3.run()
  env = {
    ...CHILD_ENV,
    LITHO_REDIS_URL: 'redis://127.0.0.1:6379',
    LITHO_REDIS_PREFIX: prefix,
    LITHO_URL_SIGNING_KEY: randomBytes(32).toString('base64url'),
    LITHO_RENDER_LINK_KEY: randomBytes(32).toString('base64url'),
    LITHO_S3_BUCKET: 'litho-failover',
    LITHO_S3_ENDPOINT: `http://127.0.0.1:${port}`,
    LITHO_S3_ACCESS_KEY_ID: 'S3RVER',
    LITHO_S3_SECRET_ACCESS_KEY: 'S3RVER',
    // The webhook receiver is on loopback over http.
    LITHO_ALLOW_NETWORKS: '127.0.0.0/8',
    LITHO_ALLOW_HTTP: '1',
  }
}, 60_000)

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL')
  await s3?.close()
  rmSync(root, { recursive: true, force: true })
  await deleteRedisKeys(prefix)
})

/** A pro user, a published small design and an access token, written to the shared stores (no queue started). */
async function seed(): Promise<{ userId: string; designId: string; accessToken: string }> {
  const backends = await createBackends({ dataDir: join(root, 'admin'), filesBaseUrl: `${PUBLIC_URL}/files`, env })
  try {
    const now = new Date().toISOString()
    const userId = `u_${randomBytes(8).toString('base64url')}`
    await backends.accounts.createUser({ id: userId, email: `${userId.toLowerCase()}@example.com`, passwordHash: 'x', plan: 'pro', createdAt: now, updatedAt: now })
    const designId = `d_${randomBytes(8).toString('base64url')}`
    await backends.designs.create({ id: designId, ownerId: userId, name: 'small', renderCode: randomBytes(16).toString('base64url'), design: SMALL_DESIGN, draft: null, createdAt: now, updatedAt: now })
    const { oauth } = await createOAuthFromEnv({ url: PUBLIC_URL, state: backends.authState, accounts: backends.accounts, meter: backends.meter, env })
    const { accessToken } = await oauth.mintAccessToken({ userId })
    return { userId, designId, accessToken }
  } finally {
    await backends.dispose()
  }
}

/** Renders counted this month for `userId`, read from the shared meter. */
async function meterUsage(userId: string): Promise<number> {
  const backends = await createBackends({ dataDir: join(root, 'admin'), filesBaseUrl: `${PUBLIC_URL}/files`, env })
  try {
    return await backends.meter.usage({ subject: userId, window: new Date().toISOString().slice(0, 7) })
  } finally {
    await backends.dispose()
  }
}

/** A port free right now (the public URL hides the one `--port 0` would take). */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

/** `litho serve` as a child process on its own data directory; resolves with its URL once it serves. */
async function serve(name: string, threads: number): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort()
  const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--threads', String(threads), '--data', join(root, name), '--public-url', PUBLIC_URL, '--no-console'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let output = ''
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (/litho: serving /.test(output)) resolve({ child, url: `http://127.0.0.1:${port}` })
    })
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('exit', (code) => reject(new Error(`serve ${name} exited with ${code}:\n${output}`)))
  })
}

/**
 * Webhook receiver that holds every delivery while `holding`; afterwards it answers 200 at once
 * (the held ones too). A held delivery whose sender died before the answer was never
 * acknowledged: it is counted as `cut`, not as delivered.
 */
class HoldingReceiver {
  secret = ''
  holding = true
  readonly acknowledged: Array<{ exportId: string; webhookId: string }> = []
  readonly cut: Array<{ exportId: string; webhookId: string }> = []
  readonly held: Array<{ exportId: string; webhookId: string; res: ServerResponse }> = []
  private server!: Server
  url = ''
  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = ''
      req.on('data', (chunk) => (body += chunk))
      req.on('end', () => {
        const verified = new Webhook(this.secret).verify(body, req.headers as Record<string, string>) as { exportId: string }
        const entry = { exportId: verified.exportId, webhookId: String(req.headers['webhook-id']), res }
        if (!this.holding) return this.answer(entry)
        this.held.push(entry)
        res.once('close', () => {
          if (!res.writableEnded) this.cut.push({ exportId: entry.exportId, webhookId: entry.webhookId })
        })
      })
    })
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`
  }
  release(): void {
    this.holding = false
    for (const entry of this.held.splice(0)) if (!entry.res.destroyed) this.answer(entry)
  }
  private answer(entry: { exportId: string; webhookId: string; res: ServerResponse }): void {
    entry.res.writeHead(200).end()
    this.acknowledged.push({ exportId: entry.exportId, webhookId: entry.webhookId })
  }
  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}

describe('kill -9 of one of two instances with export jobs queued and in flight', () => {
  it('every job completes once on the survivor within 30 s, one acknowledged webhook each, metered once', async () => {
    const { userId, designId, accessToken } = await seed()
    // a runs two jobs at a time, b one; the rest wait in the queue.
    const [a, b] = await Promise.all([serve('a', 2), serve('b', 1)])
    const auth = { authorization: `Bearer ${accessToken}` }
    const receiver = new HoldingReceiver()
    await receiver.start()
    try {
      receiver.secret = ((await (await fetch(`${b.url}/settings/webhook-secret`, { headers: auth })).json()) as { secret: string }).secret
      const ids: string[] = []
      for (let i = 0; i < JOBS; i++) {
        const response = await fetch(`${(i % 2 ? b : a).url}/designs/v2/${designId}/export/jobs`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ delivery: 'hosted', webhookUrl: receiver.url }) })
        expect(response.status).toBe(202)
        ids.push(((await response.json()) as { exportId: string }).exportId)
      }
      const view = async (id: string) => (await (await fetch(`${b.url}/analytics/exports/${id}`, { headers: auth })).json()) as { status: string; attempts: number; url?: string; webhook: { state: string; attempts: unknown[] } }
      // Both instances are in a delivery (three runs in flight), the other jobs are queued.
      for (let i = 0; i < 200 && receiver.held.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 25))
      expect(receiver.held.length).toBe(3)
      const before = await Promise.all(ids.map(view))
      expect(before.filter((job) => job.status === 'queued').length).toBeGreaterThanOrEqual(JOBS - 3)

      a.child.kill('SIGKILL')
      const killedAt = Date.now()
      await new Promise((resolve) => a.child.once('exit', resolve))
      // a's sockets closed with it: its deliveries were never answered.
      for (let i = 0; i < 100 && receiver.cut.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(receiver.cut).toHaveLength(2)
      receiver.release()

      let jobs = before
      while (Date.now() - killedAt < 30_000) {
        jobs = await Promise.all(ids.map(view))
        if (jobs.every((job) => job.webhook.state === 'delivered')) break
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const tookMs = Date.now() - killedAt
      expect(jobs.map((job) => job.webhook.state), `${tookMs} ms after the kill`).toEqual(ids.map(() => 'delivered'))
      console.log(`failover: every job done ${tookMs} ms after the kill`)
      // Rendered once each: one run that rendered, one stored file.
      expect(jobs.every((job) => job.status === 'succeeded' && job.attempts === 1 && job.url), JSON.stringify(jobs)).toBe(true)
      // Exactly one acknowledged delivery per job; a cut job's redelivery keeps its webhook-id.
      expect(receiver.acknowledged.map((d) => d.exportId).sort()).toEqual([...ids].sort())
      for (const cut of receiver.cut) expect(receiver.acknowledged.find((d) => d.exportId === cut.exportId)?.webhookId).toBe(cut.webhookId)
      const usage = (await (await fetch(`${b.url}/analytics/api`, { headers: auth })).json()) as Record<string, unknown>
      expect(JSON.stringify(usage)).toContain(`"used":${JOBS}`)
      expect(await meterUsage(userId)).toBe(JOBS)
    } finally {
      await receiver.close()
    }
  }, 60_000)
})
