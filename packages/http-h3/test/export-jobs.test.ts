// Durable export jobs (docs/exports-and-jobs.md: export/jobs, GET /analytics/exports/{exportId}, webhooks):
// the 202 acknowledgement, every bad input, polling by the owner only, refunds, 429, and
// completion webhooks verified with the `standardwebhooks` package, retried on failure.
import { LithoError, PLANS, meterStorage, refundStorage, storageUsage } from '@litho/core'
import type { UserRecord } from '@litho/core/contracts'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, expectError, sniff, type Harness } from './_harness.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'
import { Receiver } from './_receiver.js'

let h: Harness
let user: UserRecord
let other: UserRecord
let designId: string
let token: string
let readToken: string
const receiver = new Receiver()
const { accessToken, api } = oauthHelpers(() => h)

beforeAll(async () => {
  await receiver.start()
  h = await createHarness({ withOAuth: {}, withJobs: { scheduleMs: [0, 30, 30, 30] } })
  user = await h.createUser('pro', PASSWORD)
  other = await h.createUser('pro', PASSWORD)
  await h.createDesign(user)
  designId = (await h.designs.listByOwner(user.id, { offset: 0, limit: 1 })).items[0]!.id
  token = await accessToken(user)
  readToken = await accessToken(user, { scope: 'read' })
  receiver.secret = await h.jobs!.webhooks!.secrets.get(user.id)
})
afterAll(async () => {
  await h.close()
  await receiver.close()
})

const usage = (subject = user.id) => h.meter.usage({ subject, window: '2026-11' })
const enqueue = (body: unknown, query = '', t = token, id = designId) =>
  api(`/designs/v2/${id}/export/jobs${query}`, t, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) })

/** Polls the job until it is finished (and its webhook, if any, no longer pending). */
async function settled(exportId: string, t = token): Promise<Record<string, unknown>> {
  for (let i = 0; i < 400; i++) {
    const job = (await (await api(`/analytics/exports/${exportId}`, t)).json()) as Record<string, unknown> & { status: string; webhook?: { state: string } }
    if ((job.status === 'succeeded' || job.status === 'failed') && job.webhook?.state !== 'pending') return job
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`job ${exportId} did not finish`)
}

describe('POST /designs/v2/{id}/export/jobs', () => {
  it('answers 202 with exportId, status queued and pollUrl, counts one render, and the job produces a hosted PNG', async () => {
    const before = await usage()
    const response = await enqueue({ delivery: 'hosted', 'title.text': 'From a job' })
    expect(response.status).toBe(202)
    const ack = (await response.json()) as { success: boolean; exportId: string; status: string; pollUrl: string }
    expect(ack).toMatchObject({ success: true, status: 'queued' })
    expect(ack.exportId).toMatch(/^exp_[A-Za-z0-9_-]{16}$/)
    expect(ack.pollUrl).toBe(`/analytics/exports/${ack.exportId}`)
    expect(response.headers.get('location')).toBe(ack.pollUrl)
    expect(await usage()).toBe(before + 1)
    const job = await settled(ack.exportId)
    expect(job).toMatchObject({ success: true, exportId: ack.exportId, status: 'succeeded', designId, delivery: 'hosted', format: 'png', attempts: 1 })
    expect(typeof job.startedAt).toBe('string')
    expect(typeof job.finishedAt).toBe('string')
    const file = await h.fetch(new URL(job.url as string).pathname)
    expect(file.status).toBe(200)
    expect(sniff(new Uint8Array(await file.arrayBuffer()))).toBe('png')
    expect(await usage()).toBe(before + 1)
  })

  it('takes overrides from the query too, the body winning, like the synchronous exports', async () => {
    const plain = (await (await enqueue({ delivery: 'hosted' })).json()) as { exportId: string }
    const viaQuery = (await (await enqueue({ delivery: 'hosted' }, '?title.text=From%20the%20query')).json()) as { exportId: string }
    const bodyWins = (await (await enqueue({ delivery: 'hosted', 'title.text': 'From the body' }, '?title.text=From%20the%20query')).json()) as { exportId: string }
    const bytes = async (id: string) => Buffer.from(await (await h.fetch(new URL((await settled(id)).url as string).pathname)).arrayBuffer())
    const [a, b, c] = [await bytes(plain.exportId), await bytes(viaQuery.exportId), await bytes(bodyWins.exportId)]
    expect(a.equals(b)).toBe(false)
    expect(b.equals(c)).toBe(false)
    const direct = await api(`/designs/v2/${designId}/export`, token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ 'title.text': 'From the body' }) })
    expect(Buffer.from(await direct.arrayBuffer()).equals(c)).toBe(true)
  })

  it('a signed job gets an expiring URL (expiresIn in minutes) in its record', async () => {
    const ack = (await (await enqueue({ delivery: 'signed', expiresIn: 5, format: 'webp' })).json()) as { exportId: string }
    const job = await settled(ack.exportId)
    expect(job).toMatchObject({ status: 'succeeded', delivery: 'signed', format: 'webp' })
    expect(Date.parse(job.expiresAt as string) - Date.parse(job.finishedAt as string)).toBeGreaterThan(4 * 60_000)
    expect(new URL(job.url as string).searchParams.has('sig') || new URL(job.url as string).search.length > 0).toBe(true)
  })

  it('refuses bad input with a 400 naming the parameter, and counts nothing', async () => {
    const before = await usage()
    const cases: Array<[unknown, string, RegExp]> = [
      [{}, '', /delivery/],
      [{ delivery: 'stream' }, '', /delivery/],
      [{ delivery: 'hosted', expiresIn: 10 }, '', /expiresIn/],
      [{ delivery: 'signed' }, '?expiresIn=0', /expiresIn/],
      [{ delivery: 'signed' }, '?expiresIn=10081', /expiresIn/],
      [{ delivery: 'hosted' }, '?format=gif', /format/],
      [{ delivery: 'hosted' }, '?quality=0', /quality/],
      [{ delivery: 'hosted' }, '?quality=101', /quality/],
      [{ delivery: 'hosted', webhookUrl: 'ftp://example.com/x' }, '', /webhookUrl/],
      [{ delivery: 'hosted', webhookUrl: 'http://169.254.169.254/latest' }, '', /webhookUrl/],
      [{ delivery: 'hosted', webhookUrl: 42 }, '', /webhookUrl/],
      ['[1,2]', '', /body|JSON object/],
    ]
    for (const [body, query, message] of cases) await expectError(await enqueue(body, query), 400, message)
    await expectError(await enqueue({ delivery: 'hosted' }, '?variation=nope'), 400, /variation/)
    expect(await usage()).toBe(before)
  })

  it('answers 404 for an unknown design and for another user\'s, 401 without a token, 403 with a read token', async () => {
    await expectError(await enqueue({ delivery: 'hosted' }, '', token, 'd_doesnotexist'), 404, /design/)
    const otherDesign = (await h.designs.listByOwner(other.id, { offset: 0, limit: 1 })).items[0]
    const theirs = otherDesign?.id ?? (await h.createDesign(other), (await h.designs.listByOwner(other.id, { offset: 0, limit: 1 })).items[0]!.id)
    await expectError(await enqueue({ delivery: 'hosted' }, '', token, theirs), 404, /design/)
    expect((await api(`/designs/v2/${designId}/export/jobs`, undefined, { method: 'POST' })).status).toBe(401)
    expect((await enqueue({ delivery: 'hosted' }, '', readToken)).status).toBe(403)
  })

  it('answers 429 with the QuotaError body when the quota is used up, and queues nothing', async () => {
    const free = await h.createUser('free', PASSWORD)
    const code = await h.createDesign(free)
    const id = (await h.designs.get((await h.designs.getByRenderCode(code))!.id))!.id
    await h.meter.consume({ subject: free.id, window: '2026-11', amount: 100, limit: 100, id: 'fill', expiresAt: new Date('2026-12-01T00:00:00Z') })
    const response = await enqueue({ delivery: 'hosted' }, '', await accessToken(free), id)
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await response.json()).toMatchObject({ success: false, data: { usage: 100, limit: 100, remaining: 0 } })
  })

  it('answers 403 ERR_STORAGE_QUOTA when the plan storage is full (nothing metered); a job whose file no longer fits fails with that code and is refunded', async () => {
    const free = await h.createUser('free', PASSWORD)
    const code = await h.createDesign(free)
    const id = (await h.designs.getByRenderCode(code))!.id
    const freeToken = await accessToken(free)
    const limit = PLANS.free.storageBytes!
    await meterStorage(h.meter, { account: free, key: `${free.id}/full.png`, bytes: limit })
    const body = await expectError(await enqueue({ delivery: 'hosted' }, '', freeToken, id), 403, /^The storage of the free plan/)
    expect(body).toMatchObject({ code: 'ERR_STORAGE_QUOTA', data: { usage: limit, limit } })
    expect(await usage(free.id), 'nothing metered').toBe(0)
    // Room for 10 bytes: the job is queued, but its file does not fit when it is stored.
    await refundStorage(h.meter, { accountId: free.id, key: `${free.id}/full.png` })
    await meterStorage(h.meter, { account: free, key: `${free.id}/almost.png`, bytes: limit - 10 })
    const ack = (await (await enqueue({ delivery: 'signed' }, '', freeToken, id)).json()) as { exportId: string }
    const job = await settled(ack.exportId, freeToken)
    expect(job).toMatchObject({ status: 'failed', error: { code: 'ERR_STORAGE_QUOTA' } })
    expect(await usage(free.id), 'the failed job is refunded').toBe(0)
    expect((await storageUsage(h.meter, free)).usedBytes).toBe(limit - 10)
  })
})

describe('GET /analytics/exports/{exportId}', () => {
  it('shows a job to its owner only', async () => {
    const ack = (await (await enqueue({ delivery: 'hosted' })).json()) as { exportId: string }
    await settled(ack.exportId)
    expect((await api(`/analytics/exports/${ack.exportId}`, await accessToken(other))).status).toBe(404)
    expect((await api('/analytics/exports/exp_unknown', token)).status).toBe(404)
    expect((await api(`/analytics/exports/${ack.exportId}`)).status).toBe(401)
  })
})

describe('failures and refunds', () => {
  let failing: Harness
  beforeAll(async () => {
    failing = await createHarness({
      withOAuth: {},
      withJobs: { baseRetryMs: 5 },
      renderer: {
        render: async () => {
          throw new LithoError('ERR_RENDER_FAILED', 'the renderer broke on purpose')
        },
        close: async () => {},
      } as never,
    })
  })
  afterAll(() => failing.close())

  it('a job whose render fails ends failed with an actionable error, and its render is refunded', async () => {
    const owner = await failing.createUser('pro', PASSWORD)
    await failing.createDesign(owner)
    const id = (await failing.designs.listByOwner(owner.id, { offset: 0, limit: 1 })).items[0]!.id
    const helpers = oauthHelpers(() => failing)
    const t = await helpers.accessToken(owner)
    const response = await helpers.api(`/designs/v2/${id}/export/jobs`, t, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ delivery: 'hosted' }) })
    expect(response.status).toBe(202)
    const { exportId } = (await response.json()) as { exportId: string }
    let job: Record<string, unknown> = {}
    for (let i = 0; i < 200 && job.status !== 'failed'; i++) {
      job = (await (await helpers.api(`/analytics/exports/${exportId}`, t)).json()) as Record<string, unknown>
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(job).toMatchObject({ status: 'failed', error: { code: 'ERR_RENDER_FAILED', message: 'the renderer broke on purpose' }, attempts: 1 })
    expect(await failing.meter.usage({ subject: owner.id, window: '2026-11' })).toBe(0)
  })
})

describe('completion webhooks', () => {
  it('POSTs the finished job, signed so that standardwebhooks verifies it', async () => {
    receiver.deliveries.length = 0
    const ack = (await (await enqueue({ delivery: 'hosted', webhookUrl: receiver.url })).json()) as { exportId: string }
    const job = await settled(ack.exportId)
    expect(receiver.deliveries).toHaveLength(1)
    const [delivery] = receiver.deliveries
    expect(delivery!.verified).toMatchObject({ type: 'export.succeeded', exportId: ack.exportId, status: 'succeeded', designId, url: job.url, format: 'png' })
    expect(delivery!.headers['webhook-id']).toBe(`msg_${ack.exportId}`)
    expect(delivery!.headers['content-type']).toMatch(/application\/json/)
    expect(job.webhook).toMatchObject({ url: receiver.url, state: 'delivered', attempts: [{ status: 200 }] })
  })

  it('retries a receiver that fails twice, and records all three attempts on the job', async () => {
    receiver.deliveries.length = 0
    receiver.plan = [500, 503]
    const ack = (await (await enqueue({ delivery: 'hosted', webhookUrl: receiver.url })).json()) as { exportId: string }
    const job = await settled(ack.exportId)
    expect(receiver.deliveries.map((d) => d.status)).toEqual([500, 503, 200])
    // Same message id every time; each signature verifies.
    expect(new Set(receiver.deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1)
    expect(receiver.deliveries.every((d) => d.verified !== null)).toBe(true)
    const webhook = job.webhook as { state: string; attempts: Array<{ status?: number; at: string }> }
    expect(webhook.state).toBe('delivered')
    expect(webhook.attempts.map((a) => a.status)).toEqual([500, 503, 200])
  })

  it('a signature made with a rotated-away secret no longer verifies', async () => {
    const old = receiver.secret
    const rotated = (await (await api('/settings/webhook-secret/rotate', token, { method: 'POST' })).json()) as { secret: string }
    expect(rotated.secret).not.toBe(old)
    receiver.deliveries.length = 0
    receiver.secret = old
    const ack = (await (await enqueue({ delivery: 'hosted', webhookUrl: receiver.url })).json()) as { exportId: string }
    await settled(ack.exportId)
    expect(receiver.deliveries[0]!.verified).toBeNull()
    receiver.secret = rotated.secret
    expect(new Webhook(rotated.secret).verify(receiver.deliveries[0]!.body, receiver.deliveries[0]!.headers as Record<string, string>)).toMatchObject({ exportId: ack.exportId })
  })

  it('gives up after the schedule, and records every attempt', async () => {
    receiver.deliveries.length = 0
    receiver.plan = [500, 500, 500, 500, 500]
    const ack = (await (await enqueue({ delivery: 'hosted', webhookUrl: receiver.url })).json()) as { exportId: string }
    const job = await settled(ack.exportId)
    expect((job.webhook as { state: string }).state).toBe('failed')
    expect((job.webhook as { attempts: unknown[] }).attempts).toHaveLength(4)
    expect(job.status).toBe('succeeded')
    receiver.plan = []
  })
})

