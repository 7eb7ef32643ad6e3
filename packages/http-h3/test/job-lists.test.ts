// GET /analytics/exports (the account's export jobs) and GET /settings/webhook-deliveries (their
// completion webhooks with every delivery attempt) over HTTP with real tokens and real jobs: newest
// first, paged like /designs/v2 ($page, $limit 1-100 from both sides), the owner's only, scopes, CORS.
import type { UserRecord } from '@litho/core/contracts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, expectError, type Harness } from './_harness.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'
import { Receiver } from './_receiver.js'

let h: Harness
let user: UserRecord
let other: UserRecord
let designId: string
let token: string
let readToken: string
let othersRead: string
const receiver = new Receiver()
const { accessToken, api } = oauthHelpers(() => h)
/** The user's export ids, oldest first. */
const exports: string[] = []
let hooked: string
let failedHook: string

type Page<T> = { docs: T[]; page: number; totalPages: number; hasNextPage: boolean; totalDocs: number; limit: number }
type Job = { exportId: string; status: string; designId: string; webhook?: unknown }
type Delivery = { exportId: string; designId: string; status: string; url: string; state: string; attempts: Array<{ at: string; status?: number; error?: string }>; createdAt: string; finishedAt?: string; nextAttemptAt?: string }

const enqueue = async (body: Record<string, unknown>) => {
  h.clock.advance(1000)
  const response = await api(`/designs/v2/${designId}/export/jobs`, token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ delivery: 'hosted', ...body }) })
  expect(response.status).toBe(202)
  return ((await response.json()) as { exportId: string }).exportId
}

/** Waits until the job is finished and its webhook, if any, no longer pending. */
async function settled(exportId: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const job = (await (await api(`/analytics/exports/${exportId}`, readToken)).json()) as { status: string; webhook?: { state: string } }
    if ((job.status === 'succeeded' || job.status === 'failed') && job.webhook?.state !== 'pending') return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`job ${exportId} did not finish`)
}

beforeAll(async () => {
  await receiver.start()
  h = await createHarness({ withOAuth: {}, withJobs: { scheduleMs: [0, 30, 30] } })
  user = await h.createUser('pro', PASSWORD)
  other = await h.createUser('pro', PASSWORD)
  await h.createDesign(user)
  designId = (await h.designs.listByOwner(user.id, { offset: 0, limit: 1 })).items[0]!.id
  token = await accessToken(user)
  readToken = await accessToken(user, { scope: 'read' })
  othersRead = await accessToken(other, { scope: 'read' })
  receiver.secret = await h.jobs!.webhooks!.secrets.get(user.id)
  for (let i = 0; i < 3; i++) exports.push(await enqueue({}))
  // A webhook answered 500 once, then 200; and one that is never answered well.
  receiver.plan.push(500)
  hooked = await enqueue({ webhookUrl: receiver.url })
  exports.push(hooked)
  await settled(hooked)
  receiver.plan.push(503, 503, 503)
  failedHook = await enqueue({ webhookUrl: receiver.url })
  exports.push(failedHook)
  await settled(failedHook)
  for (const id of exports) await settled(id)
  // Another account's job, the newest of all.
  const othersDesign = (await h.designs.getByRenderCode(await h.createDesign(other)))!.id
  h.clock.advance(1000)
  const response = await api(`/designs/v2/${othersDesign}/export/jobs`, await accessToken(other), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ delivery: 'hosted', webhookUrl: receiver.url }) })
  expect(response.status).toBe(202)
})
afterAll(async () => {
  await h.close()
  await receiver.close()
})

describe('GET /analytics/exports', () => {
  it("answers the account's jobs newest first, each as GET /analytics/exports/{exportId} shows it, paged like /designs/v2; CORS open, not cached", async () => {
    const response = await api('/analytics/exports', readToken, { headers: { origin: 'https://console.example' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('cache-control')).toMatch(/no-store/)
    const page = (await response.json()) as Page<Job>
    expect(page).toMatchObject({ page: 1, totalPages: 1, hasNextPage: false, totalDocs: 5, limit: 10 })
    expect(page.docs.map((j) => j.exportId)).toEqual(exports.slice().reverse())
    for (const job of page.docs) expect(job).toEqual(await (await api(`/analytics/exports/${job.exportId}`, readToken)).json())
    expect(page.docs.every((j) => j.status === 'succeeded' && j.designId === designId)).toBe(true)
  })

  it('takes $page and $limit (1 and 100 included); a page past the last is empty', async () => {
    const two = (await (await api('/analytics/exports?$limit=2&$page=2', readToken)).json()) as Page<Job>
    expect(two).toMatchObject({ page: 2, totalPages: 3, hasNextPage: true, totalDocs: 5, limit: 2 })
    expect(two.docs.map((j) => j.exportId)).toEqual(exports.slice().reverse().slice(2, 4))
    expect(((await (await api('/analytics/exports?$limit=1', readToken)).json()) as Page<Job>).docs.map((j) => j.exportId)).toEqual([failedHook])
    expect(((await (await api('/analytics/exports?$limit=100', readToken)).json()) as Page<Job>).docs).toHaveLength(5)
    expect(await (await api('/analytics/exports?$page=9', readToken)).json()).toMatchObject({ docs: [], page: 9, hasNextPage: false })
  })

  it('answers page 1 of 1, empty, to an account without jobs, and never lists another account\'s', async () => {
    const theirs = (await (await api('/analytics/exports', othersRead)).json()) as Page<Job>
    expect(theirs.docs).toHaveLength(1)
    expect(theirs.docs.map((j) => j.exportId)).not.toContain(exports[0])
    const nobody = await accessToken(await h.createUser('pro', PASSWORD), { scope: 'read' })
    expect(await (await api('/analytics/exports', nobody)).json()).toEqual({ docs: [], page: 1, totalPages: 1, hasNextPage: false, totalDocs: 0, limit: 10 })
  })

  it.each([
    ['$limit=0', /^\$limit: expected a whole number from 1 to 100, received 0/],
    ['$limit=101', /^\$limit: expected a whole number from 1 to 100, received 101/],
    ['$limit=x', /^\$limit: expected a whole number from 1 to 100, received "x"/],
    ['$page=0', /^\$page: expected a whole number ≥ 1, received 0/],
    ['$page=1.5', /^\$page: /],
    ['$page=1&$page=2', /^\$page: expected one value, received 2/],
  ])('answers 400 naming the parameter for %s', async (query, message) => {
    for (const path of ['/analytics/exports', '/settings/webhook-deliveries']) {
      const body = await expectError(await api(`${path}?${query}`, readToken), 400, message)
      expect(body.code).toBe('ERR_INVALID_REQUEST')
    }
  })
})

describe('GET /settings/webhook-deliveries', () => {
  it('lists the webhooks of the account newest first, with the export they belong to and every attempt (time, status, error)', async () => {
    const response = await api('/settings/webhook-deliveries', readToken, { headers: { origin: 'https://console.example' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const page = (await response.json()) as Page<Delivery>
    expect(page).toMatchObject({ page: 1, totalPages: 1, hasNextPage: false, totalDocs: 2, limit: 10 })
    expect(page.docs.map((d) => d.exportId)).toEqual([failedHook, hooked])
    const [failed, delivered] = page.docs as [Delivery, Delivery]
    expect(delivered).toMatchObject({ designId, status: 'succeeded', url: receiver.url, state: 'delivered' })
    expect(delivered.attempts.map((a) => a.status)).toEqual([500, 200])
    expect(delivered.attempts[0]!.error).toEqual(expect.any(String))
    expect(delivered.attempts[1]).not.toHaveProperty('error')
    for (const attempt of delivered.attempts) expect(new Date(attempt.at).toISOString()).toBe(attempt.at)
    expect(failed).toMatchObject({ state: 'failed', attempts: [{ status: 503 }, { status: 503 }, { status: 503 }] })
    // The same attempts as the job record shows.
    const job = (await (await api(`/analytics/exports/${hooked}`, readToken)).json()) as { webhook: { attempts: unknown } }
    expect(delivered.attempts).toEqual(job.webhook.attempts)
    const second = (await (await api('/settings/webhook-deliveries?$limit=1&$page=2', readToken)).json()) as Page<Delivery>
    expect(second).toMatchObject({ totalPages: 2, hasNextPage: false })
    expect(second.docs.map((d) => d.exportId)).toEqual([hooked])
  })

  it("never shows another account's webhooks; shows no secret", async () => {
    const theirs = (await (await api('/settings/webhook-deliveries', othersRead)).json()) as Page<Delivery>
    expect(theirs.docs.map((d) => d.exportId)).not.toContain(hooked)
    const text = JSON.stringify(await (await api('/settings/webhook-deliveries', readToken)).json())
    expect(text).not.toContain('whsec_')
  })
})

describe('scopes', () => {
  it('both lists need a token with read: 401 without one, 403 ERR_INSUFFICIENT_SCOPE with write only', async () => {
    const writeOnly = await accessToken(user, { scope: 'write' })
    for (const path of ['/analytics/exports', '/settings/webhook-deliveries']) {
      expect((await h.fetch(path)).status).toBe(401)
      const response = await api(path, writeOnly)
      expect((await expectError(response, 403, /insufficient scope/)).code).toBe('ERR_INSUFFICIENT_SCOPE')
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
    }
  })
})
