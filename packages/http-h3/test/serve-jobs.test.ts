// Export jobs on the embedded default survive a restart: stop `litho serve` with jobs queued,
// start it again on the same data directory, and every job completes exactly once (one render
// counted, one successful run, one webhook delivery each).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fsJobStore } from '@litho/storage-adapters/job-store'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startLithoServer, type LithoServer } from '../src/server.js'
import { Browser } from './_browser.js'
import { SMALL_DESIGN } from './_harness.js'
import { Receiver } from './_receiver.js'
import { seedSignedInUser } from './_serve-oauth.js'

const dataDir = mkdtempSync(join(tmpdir(), 'litho-serve-jobs-'))
const PUBLIC = 'http://litho.test'
const env = { LITHO_ALLOW_NETWORKS: '127.0.0.0/8', LITHO_ALLOW_HTTP: '1' }
const receiver = new Receiver()
const running: LithoServer[] = []
beforeAll(() => receiver.start())
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()))
  await receiver.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function start(): Promise<{ server: LithoServer; call: (url: string, init?: RequestInit) => Promise<Response> }> {
  // closeGraceMs 0: stop at once (no second of 503s first), so the stop leaves queued jobs behind.
  const server = await startLithoServer({ dataDir, port: 0, threads: 1, publicUrl: PUBLIC, env, log: () => {}, webhookRetryScheduleMs: [0, 50, 50], jobRetryBaseMs: 20, closeGraceMs: 0 })
  running.push(server)
  return { server, call: (url, init) => fetch(url.replace(PUBLIC, `http://127.0.0.1:${server.port}`), init) }
}

it('completes every job exactly once across a stop and a start', async () => {
  const first = await start()
  const { userId, token } = await seedSignedInUser(first.server, first.call, PUBLIC, Browser)
  const now = new Date().toISOString()
  await first.server.backends.designs.create({ id: 'd_jobsrestart01', ownerId: userId, name: 'card', renderCode: 'jobsrestartrendercode01', design: SMALL_DESIGN, draft: null, createdAt: now, updatedAt: now })
  receiver.secret = (await (await first.call(`${PUBLIC}/settings/webhook-secret`, { headers: { authorization: `Bearer ${token}` } })).json() as { secret: string }).secret
  const ids: string[] = []
  for (let i = 0; i < 6; i++) {
    const response = await first.call(`${PUBLIC}/designs/v2/d_jobsrestart01/export/jobs`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ delivery: 'hosted', webhookUrl: receiver.url, 'title.text': `job ${i}` }) })
    expect(response.status).toBe(202)
    ids.push(((await response.json()) as { exportId: string }).exportId)
  }
  // Stop at once: some jobs ran, the rest are still queued on disk.
  await first.server.close()
  running.splice(running.indexOf(first.server), 1)
  // The stop really left work behind: jobs still queued on disk.
  const records = fsJobStore({ base: join(dataDir, 'jobs', 'records') })
  const statuses = await Promise.all(ids.map(async (id) => (await records.get(id))!.status))
  expect(statuses.filter((status) => status === 'queued').length).toBeGreaterThan(0)
  await records.dispose?.()

  const second = await start()
  const poll = async (id: string) => (await (await second.call(`${PUBLIC}/analytics/exports/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { status: string; attempts: number; webhook: { state: string } }
  for (let round = 0; round < 600; round++) {
    const jobs = await Promise.all(ids.map(poll))
    if (jobs.every((job) => job.status === 'succeeded' && job.webhook.state === 'delivered')) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const jobs = await Promise.all(ids.map(poll))
  expect(jobs.map((job) => job.status)).toEqual(ids.map(() => 'succeeded'))
  expect(jobs.every((job) => job.attempts === 1)).toBe(true)
  // One delivery per job, each verified, no duplicates.
  const delivered = receiver.deliveries.map((d) => (d.verified as { exportId: string }).exportId)
  expect(delivered.sort()).toEqual([...ids].sort())
  expect(await second.server.backends.meter.usage({ subject: userId, window: new Date().toISOString().slice(0, 7) })).toBe(6)
  // The fs job store lists them across the restart: every job, and every webhook with its one delivery.
  const list = (await (await second.call(`${PUBLIC}/analytics/exports?$limit=100`, { headers: { authorization: `Bearer ${token}` } })).json()) as { docs: Array<{ exportId: string }>; totalDocs: number }
  expect(list.docs.map((job) => job.exportId).sort()).toEqual([...ids].sort())
  const hooks = (await (await second.call(`${PUBLIC}/settings/webhook-deliveries?$limit=100`, { headers: { authorization: `Bearer ${token}` } })).json()) as { docs: Array<{ exportId: string; state: string; attempts: Array<{ status?: number }> }> }
  expect(hooks.docs.map((hook) => [hook.state, hook.attempts.map((a) => a.status)])).toEqual(ids.map(() => ['delivered', [200]]))
}, 90_000)
