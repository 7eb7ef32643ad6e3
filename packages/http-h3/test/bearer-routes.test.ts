// The bearer endpoints of docs/http-reference.md (designs, render config, usage analytics, API keys)
// over HTTP, with real access tokens from the built-in authorization server (docs/authentication.md):
// every documented behaviour, their errors and limits, and CORS for browsers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiKeyListSchema, CreatedApiKeySchema, DesignResourceSchema, PaginatedDesignsSchema, RenderConfigSchema, UsageResponseSchema, sweepStoredFiles } from '@litho/core'
import type { UserRecord } from '@litho/core/contracts'
import { createRenderKey } from '@litho/auth-adapters'
import { RENDER_URL, SMALL_DESIGN, createHarness, expectError, type Harness } from './_harness.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR

let h: Harness
const { accessToken, api } = oauthHelpers(() => h)

beforeAll(async () => {
  h = await createHarness({ withOAuth: {} })
})
afterAll(() => h.close())

/** A new user who can sign in. */
const newUser = (plan: UserRecord['plan'] = 'pro') => h.createUser(plan, PASSWORD)
/** The `_id` of the design with render code `code`. */
const idOf = async (code: string) => (await h.designs.getByRenderCode(code))!.id
/** A GET render with a render key in the query (docs/authentication.md), as an image tag would do it. */
const render = (code: string, key: string) => h.fetch(`/v1/${code}?format=png&dma-api-key=${encodeURIComponent(key)}`)
const postJson = (token: string, body: string, path = '/settings/api-keys') => api(path, token, { method: 'POST', headers: { 'content-type': 'application/json' }, body })

describe('GET /designs/v2', () => {
  let user: UserRecord
  /** The user's design ids, oldest first. */
  const ids: string[] = []

  beforeAll(async () => {
    user = await newUser()
    for (let i = 0; i < 12; i++) {
      h.clock.advance(60_000)
      ids.push(await idOf(await h.createDesign(user)))
    }
    // Designs of someone else, newer than all of the user's.
    const other = await newUser()
    h.clock.advance(60_000)
    await h.createDesign(other)
    await h.createDesign(other)
  })

  it('answers PaginatedDesigns of the token user only, most recently updated first, 10 per page by default', async () => {
    const token = await accessToken(user, { scope: 'read' })
    const response = await api('/designs/v2', token)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const page = (await response.json()) as { docs: Array<{ _id: string; name: string; updatedAt: string }>; page: number; totalPages: number; hasNextPage: boolean; totalDocs: number; limit: number }
    expect(page).toMatchObject({ page: 1, totalPages: 2, hasNextPage: true, totalDocs: 12, limit: 10 })
    expect(page.docs.map((d) => d._id)).toEqual(ids.slice().reverse().slice(0, 10))
    for (const doc of page.docs) {
      expect(Object.keys(doc).sort()).toEqual(['_id', 'name', 'updatedAt'])
      expect(doc.name).toBe('test design')
      expect(new Date(doc.updatedAt).toISOString()).toBe(doc.updatedAt)
    }
    const times = page.docs.map((d) => Date.parse(d.updatedAt))
    expect(times).toEqual(times.slice().sort((a, b) => b - a))

    const second = (await (await api('/designs/v2?$page=2', token)).json()) as typeof page
    expect(second).toMatchObject({ page: 2, totalPages: 2, hasNextPage: false })
    expect(second.docs.map((d) => d._id)).toEqual(ids.slice(0, 2).reverse())
  })

  it('orders by the last update, not by creation', async () => {
    const oldest = (await h.designs.get(ids[0]!))!
    h.clock.advance(60_000)
    await h.designs.update({ ...oldest, name: 'renamed', updatedAt: h.clock.now().toISOString() })
    const token = await accessToken(user, { scope: 'read' })
    const page = (await (await api('/designs/v2?$limit=3', token)).json()) as { docs: Array<{ _id: string; name: string }> }
    expect(page.docs.map((d) => d._id)).toEqual([ids[0], ids[11], ids[10]])
    expect(page.docs[0]!.name).toBe('renamed')
    ids.push(ids.shift()!)
  })

  it('takes $page and $limit, and a page past the last is empty', async () => {
    const token = await accessToken(user, { scope: 'read' })
    const page = (await (await api('/designs/v2?$page=3&$limit=5', token)).json()) as { docs: Array<{ _id: string }>; page: number; totalPages: number; hasNextPage: boolean }
    expect(page).toMatchObject({ page: 3, totalPages: 3, hasNextPage: false })
    expect(page.docs.map((d) => d._id)).toEqual(ids.slice(0, 2).reverse())
    const all = (await (await api('/designs/v2?$limit=100', token)).json()) as { docs: unknown[]; totalPages: number }
    expect(all.docs).toHaveLength(12)
    expect(all.totalPages).toBe(1)
    const past = (await (await api('/designs/v2?$page=9', token)).json()) as { docs: unknown[]; page: number; hasNextPage: boolean }
    expect(past).toMatchObject({ docs: [], page: 9, hasNextPage: false })
  })

  it('answers page 1 of 1, empty, to a user without designs', async () => {
    const token = await accessToken(await newUser())
    expect(await (await api('/designs/v2', token)).json()).toMatchObject({ docs: [], page: 1, totalPages: 1, hasNextPage: false, totalDocs: 0 })
  })

  it.each([
    ['$limit=0', /^\$limit: expected a whole number from 1 to 100, received 0/],
    ['$limit=101', /^\$limit: expected a whole number from 1 to 100, received 101/],
    ['$limit=x', /^\$limit: expected a whole number from 1 to 100, received "x"/],
    ['$limit=2.5', /^\$limit: .*received 2\.5/],
    ['$page=0', /^\$page: expected a whole number ≥ 1, received 0/],
    ['$page=-1', /^\$page: /],
    ['$page=1&$page=2', /^\$page: expected one value, received 2/],
  ])('answers 400 naming the parameter for %s', async (query, message) => {
    const token = await accessToken(user, { scope: 'read' })
    const body = await expectError(await api(`/designs/v2?${query}`, token), 400, message)
    expect(body.code).toBe('ERR_INVALID_REQUEST')
  })
})

describe('GET /designs/v2/{id} and /designs/v2/{id}/config', () => {
  let user: UserRecord
  let other: UserRecord
  let code: string
  let id: string
  let draftId: string
  let othersId: string

  beforeAll(async () => {
    user = await newUser()
    other = await newUser()
    code = await h.createDesign(user)
    id = await idOf(code)
    draftId = await idOf(await h.createDesign(user, { ...SMALL_DESIGN, width: 300 }, { draftOnly: true }))
    othersId = await idOf(await h.createDesign(other, { ...SMALL_DESIGN, name: 'secret-other-design' }))
  })

  it('answers the design record: _id, name, renderCode, dates and the document', async () => {
    const response = await api(`/designs/v2/${id}`, await accessToken(user, { scope: 'read' }))
    expect(response.status).toBe(200)
    const record = (await response.json()) as Record<string, unknown>
    const stored = (await h.designs.get(id))!
    expect(record).toEqual({ _id: id, name: 'test design', renderCode: code, createdAt: stored.createdAt, updatedAt: stored.updatedAt, design: SMALL_DESIGN })
    expect(record).not.toHaveProperty('draft')
    expect(record).not.toHaveProperty('ownerId')
  })

  it('answers a draft-only design with design null and the draft', async () => {
    const record = (await (await api(`/designs/v2/${draftId}`, await accessToken(user))).json()) as Record<string, unknown>
    expect(record.design).toBeNull()
    expect(record.draft).toEqual({ ...SMALL_DESIGN, width: 300 })
  })

  it("answers 404 for an unknown id, an id outside the alphabet, and another user's design, without its data", async () => {
    const token = await accessToken(user)
    for (const path of ['/designs/v2/d_nope', `/designs/v2/${'x'.repeat(65)}`, '/designs/v2/a.b', `/designs/v2/${othersId}`, '/designs/v2/d_nope/config', `/designs/v2/${othersId}/config`]) {
      const response = await api(path, token)
      const body = await expectError(response, 404, /^no design has the id/)
      expect(body.code, path).toBe('ERR_DESIGN_NOT_FOUND')
      const text = JSON.stringify(body)
      expect(text).not.toContain(other.id)
      expect(text).not.toContain('secret-other-design')
      expect(text).not.toContain('render.test/v1')
    }
  })

  it('the owner of the other design does see it', async () => {
    const response = await api(`/designs/v2/${othersId}`, await accessToken(other))
    expect(response.status).toBe(200)
    expect(((await response.json()) as { design: { name: string } }).design.name).toBe('secret-other-design')
  })

  it('answers the render config: the render URL, the dynamic fields and the sizes, master first', async () => {
    const response = await api(`/designs/v2/${id}/config`, await accessToken(user, { scope: 'read' }))
    expect(response.status).toBe(200)
    const config = (await response.json()) as { render: string; data: { pure: Record<string, Record<string, unknown>>; flatten: Record<string, unknown> }; variations: unknown[] }
    expect(config.render).toBe(`${RENDER_URL}/v1/${code}`)
    expect(config.data.pure).toEqual({ title: { text: 'Hello', color: '#ffffff' }, badge: { fill: '#f59e0b' }, photo: { src: null } })
    expect(config.data.flatten).toEqual({ 'title.text': 'Hello', 'title.color': '#ffffff', 'badge.fill': '#f59e0b', 'photo.src': null })
    expect(config.variations).toEqual([
      { id: 'master', name: 'Master', dimensions: { width: 240, height: 160 } },
      { id: 'square', name: 'Square', dimensions: { width: 160, height: 160 } },
    ])
  })

  it('the render URL of the config renders the design with a render key, and its flatten keys override', async () => {
    const config = (await (await api(`/designs/v2/${id}/config`, await accessToken(user))).json()) as { render: string; data: { flatten: Record<string, unknown> } }
    const key = await h.createKey(user)
    const url = new URL(config.render)
    for (const name of Object.keys(config.data.flatten).filter((k) => k.startsWith('title.'))) url.searchParams.set(name, name === 'title.text' ? 'Hi' : '#000000')
    url.searchParams.set('variation', 'square')
    const response = await h.fetch(`${url.pathname}${url.search}`, { headers: { 'dma-api-key': key } })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-litho-ignored-overrides')).toBeNull()
    expect(response.headers.get('x-litho-variation')).toBe('square')
  })

  it('describes a draft-only design from its draft', async () => {
    const config = (await (await api(`/designs/v2/${draftId}/config`, await accessToken(user))).json()) as { variations: Array<{ id: string; dimensions: unknown }> }
    expect(config.variations[0]).toEqual({ id: 'master', name: 'Master', dimensions: { width: 300, height: 160 } })
  })
})

describe('GET /analytics/api', () => {
  let user: UserRecord
  let code: string
  let key: string
  /** Someone else who renders in the same hours. */
  let other: UserRecord
  /** Midnight UTC of the day the renders start. */
  let day0: number

  beforeAll(async () => {
    user = await newUser()
    code = await h.createDesign(user)
    key = await h.createKey(user)
    // Move to 10:15 UTC of the next day, then render: 2 at 10:xx, 1 at 11:xx, 3 the day after at 09:xx.
    const now = h.clock.now().getTime()
    day0 = Math.floor(now / DAY) * DAY + DAY
    h.clock.set(new Date(day0 + 10 * HOUR + 15 * 60_000))
    for (const [advance, renders] of [
      [0, 2],
      [HOUR, 1],
      [DAY - 2 * HOUR, 3],
    ] as const) {
      h.clock.advance(advance)
      for (let i = 0; i < renders; i++) expect((await render(code, key)).status).toBe(200)
    }
    // Another user's renders, in the same hours.
    other = await newUser()
    const otherCode = await h.createDesign(other)
    const otherKey = await h.createKey(other)
    for (let i = 0; i < 2; i++) expect((await render(otherCode, otherKey)).status).toBe(200)
    // A render that fails (unknown variation) is refunded: not counted.
    expect((await h.fetch(`/v1/${code}?variation=nope&dma-api-key=${key}`)).status).toBe(400)
    // And time goes on: now is day 2, 14:15.
    h.clock.advance(5 * HOUR)
  })

  const iso = (ms: number) => new Date(ms).toISOString()
  type Usage = { success: boolean; groupBy: string; start: string; end: string; total: number; buckets: Array<{ start: string; end: string; count: number }> }
  const usage = async (query: string, who: UserRecord = user) => {
    const response = await api(`/analytics/api${query}`, await accessToken(who, { scope: 'read' }))
    expect(response.status).toBe(200)
    return (await response.json()) as Usage
  }

  it('reports the stored bytes now and the plan\'s storage limit; they go down when a file is swept', async () => {
    const saver = await newUser('basic')
    const saverCode = await h.createDesign(saver)
    const saverKey = await h.createKey(saver)
    const storage = async () => ((await (await api('/analytics/api', await accessToken(saver, { scope: 'read' }))).json()) as { storage: unknown }).storage
    expect(await storage()).toEqual({ usedBytes: 0, limitBytes: 10_000_000_000 })
    const stored = (await (await h.fetch(`/v1/${saverCode}?delivery=signed&expiresIn=1&dma-api-key=${saverKey}`)).json()) as { file: { size: number } }
    expect(await storage()).toEqual({ usedBytes: stored.file.size, limitBytes: 10_000_000_000 })
    h.clock.advance(61_000)
    expect((await sweepStoredFiles({ files: h.files, meter: h.meter, retention: h.retention, clock: h.clock }, { hostedRetentionDays: null })).deleted).toBeGreaterThanOrEqual(1)
    expect(await storage()).toEqual({ usedBytes: 0, limitBytes: 10_000_000_000 })
  })

  it('reports the render quota now, as the X-Quota-* headers of the last render, without spending one', async () => {
    const counter = await newUser('free')
    const counterCode = await h.createDesign(counter)
    const counterKey = await h.createKey(counter)
    const rendered = await render(counterCode, counterKey)
    const quota = async () => ((await (await api('/analytics/api', await accessToken(counter, { scope: 'read' }))).json()) as { quota: unknown }).quota
    const expected = { limit: Number(rendered.headers.get('x-quota-limit')), used: 1, remaining: Number(rendered.headers.get('x-quota-remaining')), resetAt: rendered.headers.get('x-quota-reset') }
    expect(expected).toMatchObject({ limit: 100, remaining: 99 })
    expect(await quota()).toEqual(expected)
    expect(await quota()).toEqual(expected)
  })

  it('counts renders in hour buckets, every bucket included', async () => {
    const body = await usage(`?groupBy=hour&start=${iso(day0 + 9 * HOUR)}&end=${iso(day0 + DAY + 11 * HOUR)}`)
    expect(body).toMatchObject({ success: true, groupBy: 'hour', start: iso(day0 + 9 * HOUR), end: iso(day0 + DAY + 11 * HOUR), total: 6 })
    expect(body.buckets).toHaveLength(26)
    expect(body.buckets[0]).toEqual({ start: iso(day0 + 9 * HOUR), end: iso(day0 + 10 * HOUR), count: 0 })
    const nonZero = body.buckets.filter((b) => b.count > 0)
    expect(nonZero).toEqual([
      { start: iso(day0 + 10 * HOUR), end: iso(day0 + 11 * HOUR), count: 2 },
      { start: iso(day0 + 11 * HOUR), end: iso(day0 + 12 * HOUR), count: 1 },
      { start: iso(day0 + DAY + 9 * HOUR), end: iso(day0 + DAY + 10 * HOUR), count: 3 },
    ])
    expect(body.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(body.total)
  })

  it('counts renders in day buckets', async () => {
    const body = await usage(`?groupBy=day&start=${iso(day0 - DAY)}&end=${iso(day0 + 3 * DAY)}`)
    expect(body.total).toBe(6)
    expect(body.buckets.map((b) => [b.start, b.count])).toEqual([
      [iso(day0 - DAY), 0],
      [iso(day0), 3],
      [iso(day0 + DAY), 3],
      [iso(day0 + 2 * DAY), 0],
    ])
  })

  it('counts only the range asked for: [start, end) by the hour', async () => {
    const body = await usage(`?groupBy=day&start=${iso(day0 + 11 * HOUR)}&end=${iso(day0 + DAY + 9 * HOUR)}`)
    expect(body.total).toBe(1)
    expect(body.buckets.map((b) => b.count)).toEqual([1, 0])
  })

  it('defaults to the last 7 days in day buckets, ending now', async () => {
    const now = h.clock.now().getTime()
    const body = await usage('')
    expect(body).toMatchObject({ groupBy: 'day', start: iso(now - 7 * DAY), end: iso(now), total: 6 })
    expect(body.buckets).toHaveLength(8)
    expect(body.buckets[0]!.start).toBe(iso(Math.floor((now - 7 * DAY) / DAY) * DAY))
    expect(body.buckets.at(-1)!.end).toBe(iso(Math.floor(now / DAY) * DAY + DAY))
    // With only `end`, `start` is 7 days before it.
    const before = await usage(`?end=${iso(day0 + DAY)}`)
    expect(before).toMatchObject({ start: iso(day0 - 6 * DAY), total: 3 })
  })

  it('takes week, month and year, and offsets or bare dates', async () => {
    expect((await usage('?groupBy=week')).total).toBe(6)
    expect((await usage(`?groupBy=month&start=${iso(day0 - 40 * DAY)}`)).total).toBe(6)
    const year = await usage(`?groupBy=year&start=${iso(day0 - 400 * DAY)}`)
    expect(year.total).toBe(6)
    expect(year.buckets.length).toBeGreaterThanOrEqual(2)
    const day = iso(day0).slice(0, 10)
    expect(await usage(`?start=${day}&end=${iso(day0 + DAY).slice(0, 10)}`)).toMatchObject({ start: iso(day0), total: 3 })
    expect(await usage(`?start=${day}T12:00:00%2B02:00&end=${iso(day0 + DAY)}&groupBy=hour`)).toMatchObject({ start: iso(day0 + 10 * HOUR), total: 3 })
  })

  it("never shows another user's renders", async () => {
    // The other user rendered twice in the user's last render hour: they see theirs only, and the user's count stays.
    const theirs = await usage(`?groupBy=hour&start=${iso(day0 + DAY + 9 * HOUR)}&end=${iso(day0 + DAY + 10 * HOUR)}`, other)
    expect(theirs.total).toBe(2)
    const mine = await usage(`?groupBy=hour&start=${iso(day0 + DAY + 9 * HOUR)}&end=${iso(day0 + DAY + 10 * HOUR)}`)
    expect(mine.total).toBe(3)
    expect((await usage('', await newUser())).total).toBe(0)
  })

  it.each([
    ['start=yesterday', /^start: expected an ISO 8601 date-time/],
    ['start=2026-02-30T00:00:00Z', /^start: expected an ISO 8601 date-time/],
    ['end=2026-11-23T25:00:00Z', /^end: expected an ISO 8601 date-time/],
    ['start=2026-11-20T00:00:00Z&end=2026-11-20T00:00:00Z', /^start: expected a date-time before end/],
    ['start=2026-11-21T00:00:00Z&end=2026-11-20T00:00:00Z', /^start: expected a date-time before end/],
    ['start=2099-01-01T00:00:00Z', /^start: expected a date-time before end \(now, /],
    ['groupBy=minute', /^groupBy: expected one of hour, day, week, month, year, received "minute"/],
    ['groupBy=Day', /^groupBy: /],
    ['groupBy=day&groupBy=hour', /^groupBy: expected one value, received 2/],
    ['groupBy=hour&start=2026-09-01T00:00:00Z&end=2026-11-01T00:00:00Z', /^groupBy: "hour" over .* gives 1464 buckets, more than 1000/],
  ])('answers 400 naming the parameter for %s', async (query, message) => {
    const response = await api(`/analytics/api?${query}`, await accessToken(user, { scope: 'read' }))
    const body = await expectError(response, 400, message)
    expect(body.code).toBe('ERR_INVALID_REQUEST')
  })
})

describe('/settings/api-keys', () => {
  let user: UserRecord
  let other: UserRecord
  let code: string
  let existing: string

  beforeAll(async () => {
    user = await newUser()
    other = await newUser()
    code = await h.createDesign(user)
    existing = await h.createKey(user)
  })

  type KeyList = { docs: Array<Record<string, unknown>>; limit: number }

  it('lists the keys with _id, name, active and prefix, never the secret or its hash', async () => {
    const response = await api('/settings/api-keys', await accessToken(user, { scope: 'read' }))
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).not.toContain(existing)
    const stored = (await h.accounts.listKeys(user.id, { limit: 10 }))[0]!
    expect(text).not.toContain(stored.hash)
    const list = JSON.parse(text) as KeyList
    expect(list.limit).toBe(10)
    expect(list.docs).toEqual([{ _id: stored.id, name: 'test', active: true, prefix: stored.prefix, createdAt: stored.createdAt, lastUsedAt: null }])
    expect(existing.startsWith(String(list.docs[0]!.prefix).replace(/…$/, ''))).toBe(true)
  })

  it('takes $limit 1-100, newest first', async () => {
    const lister = await newUser()
    for (let i = 0; i < 3; i++) {
      h.clock.advance(1000)
      await h.createKey(lister)
    }
    const token = await accessToken(lister, { scope: 'read' })
    const all = (await (await api('/settings/api-keys', token)).json()) as KeyList
    expect(all.docs).toHaveLength(3)
    const times = all.docs.map((d) => Date.parse(String(d.createdAt)))
    expect(times).toEqual(times.slice().sort((a, b) => b - a))
    const two = (await (await api('/settings/api-keys?$limit=2', token)).json()) as KeyList
    expect(two).toMatchObject({ limit: 2 })
    expect(two.docs.map((d) => d._id)).toEqual(all.docs.slice(0, 2).map((d) => d._id))
    expect(((await (await api('/settings/api-keys?$limit=100', token)).json()) as KeyList).docs).toHaveLength(3)
    for (const [query, received] of [
      ['$limit=0', '0'],
      ['$limit=101', '101'],
      ['$limit=x', '"x"'],
    ]) {
      const body = await expectError(await api(`/settings/api-keys?${query}`, token), 400, new RegExp(`^\\$limit: expected a whole number from 1 to 100, received ${received}`))
      expect(body.code).toBe('ERR_INVALID_REQUEST')
    }
  })

  it('150 concurrent POST /settings/api-keys against a limit of 100 make exactly 100 keys, and every one of them is listed', async () => {
    const flooder = await newUser()
    const token = await accessToken(flooder)
    const responses = await Promise.all(Array.from({ length: 150 }, (_, i) => postJson(token, JSON.stringify({ name: `k${i}` }))))
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(100)
    expect(statuses.filter((s) => s === 400)).toHaveLength(50)
    const refused = responses.find((r) => r.status === 400)!
    expect(((await refused.json()) as { message: string }).message).toMatch(/at most 100 API keys: revoke one before creating another/)
    expect(await h.accounts.listKeys(flooder.id, { limit: 100, offset: 100 }), 'no 101st key').toEqual([])
    const listed = new Set<string>()
    for (let page = 1; ; page++) {
      const body = (await (await api(`/settings/api-keys?$limit=30&$page=${page}`, token)).json()) as KeyList & { hasNextPage: boolean; totalPages: number }
      expect(body.totalPages).toBe(4)
      for (const key of body.docs) listed.add(String(key._id))
      if (!body.hasNextPage) break
    }
    expect(listed.size).toBe(100)
  })

  it('pages with $page: page, totalPages and hasNextPage, every key reachable', async () => {
    const pager = await newUser()
    const token = await accessToken(pager)
    const made: string[] = []
    for (let i = 0; i < 5; i++) {
      h.clock.advance(1000)
      const response = await postJson(token, JSON.stringify({ name: `p${i}` }))
      made.push(String(((await response.json()) as { _id: string })._id))
    }
    const pages = await Promise.all([1, 2, 3, 4].map(async (page) => (await (await api(`/settings/api-keys?$limit=2&$page=${page}`, token)).json()) as KeyList & { page: number; totalPages: number; hasNextPage: boolean }))
    expect(pages.map((p) => [p.page, p.totalPages, p.hasNextPage, p.docs.length])).toEqual([[1, 3, true, 2], [2, 3, true, 2], [3, 3, false, 1], [4, 3, false, 0]])
    expect(pages.flatMap((p) => p.docs.map((d) => d._id))).toEqual(made.reverse())
    const body = await expectError(await api('/settings/api-keys?$page=0', token), 400, /^\$page: expected a whole number ≥ 1, received 0/)
    expect(body.code).toBe('ERR_INVALID_REQUEST')
  })

  it('creates a key (201, the secret once) that renders, is listed without its secret, and stops working once deleted', async () => {
    const token = await accessToken(user)
    const response = await postJson(token, JSON.stringify({ name: '  CI  ' }))
    expect(response.status).toBe(201)
    const created = (await response.json()) as { success: boolean; key: string; _id: string; name: string; active: boolean; prefix: string; createdAt: string }
    expect(created).toMatchObject({ success: true, name: 'CI', active: true, createdAt: h.clock.now().toISOString() })
    expect(created.key).toEqual(expect.any(String))
    expect(created.key.startsWith(created.prefix.replace(/…$/, ''))).toBe(true)
    expect(created).not.toHaveProperty('hash')

    expect((await render(code, created.key)).status).toBe(200)

    const listed = await api('/settings/api-keys', token)
    const text = await listed.text()
    expect(text).not.toContain(created.key)
    const list = JSON.parse(text) as KeyList
    expect(list.docs.map((d) => d._id)).toContain(created._id)
    const entry = list.docs.find((d) => d._id === created._id)!
    expect(entry).toMatchObject({ name: 'CI', active: true, prefix: created.prefix })
    expect(Object.keys(entry).sort()).toEqual(['_id', 'active', 'createdAt', 'lastUsedAt', 'name', 'prefix'])

    const deleted = await api(`/settings/api-keys/${created._id}`, token, { method: 'DELETE' })
    expect(deleted.status).toBe(200)
    expect(await deleted.json()).toEqual({ success: true, _id: created._id })
    expect((await render(code, created.key)).status).toBe(401)
    expect(((await (await api('/settings/api-keys', token)).json()) as KeyList).docs.map((d) => d._id)).not.toContain(created._id)
    // Deleting it again: it is gone.
    await expectError(await api(`/settings/api-keys/${created._id}`, token, { method: 'DELETE' }), 404, /^no API key has the id/)
    // The other key still works.
    expect((await render(code, existing)).status).toBe(200)
  })

  it('creates a key named "API key" without a body', async () => {
    const response = await api('/settings/api-keys', await accessToken(user), { method: 'POST' })
    expect(response.status).toBe(201)
    expect(await response.json()).toMatchObject({ success: true, name: 'API key' })
  })

  it("answers 404 to deleting another user's key or an unknown one, and the key keeps working", async () => {
    const othersCode = await h.createDesign(other)
    const othersKey = await h.createKey(other)
    const othersId = (await h.accounts.listKeys(other.id, { limit: 1 }))[0]!.id
    const token = await accessToken(user)
    for (const id of [othersId, 'key_nope', 'a.b']) {
      const body = await expectError(await api(`/settings/api-keys/${id}`, token, { method: 'DELETE' }), 404, /^no API key has the id/)
      expect(body.code).toBe('ERR_KEY_NOT_FOUND')
    }
    expect(await h.accounts.getKey(othersId)).not.toBeNull()
    expect((await render(othersCode, othersKey)).status).toBe(200)
  })

  it('answers 403 insufficient_scope to a read-only token on POST and DELETE, and creates nothing', async () => {
    const token = await accessToken(user, { scope: 'read' })
    const before = (await h.accounts.listKeys(user.id, { limit: 100 })).length
    const post = await postJson(token, JSON.stringify({ name: 'CI' }))
    const body = await expectError(post, 403, /insufficient scope/)
    expect(body.code).toBe('ERR_INSUFFICIENT_SCOPE')
    expect(post.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="read write"/)
    expect(post.headers.get('access-control-allow-origin')).toBe('*')
    const id = (await h.accounts.listKeys(user.id, { limit: 1 }))[0]!.id
    expect((await api(`/settings/api-keys/${id}`, token, { method: 'DELETE' })).status).toBe(403)
    expect((await h.accounts.listKeys(user.id, { limit: 100 })).length).toBe(before)
  })

  it.each([
    ['an array', '[{"name":"CI"}]', /^body: expected a JSON object/],
    ['a string', '"CI"', /^body: expected a JSON object/],
    ['a name too long', JSON.stringify({ name: 'x'.repeat(101) }), /^name: expected a name of 1 to 100 characters/],
    ['an empty name', JSON.stringify({ name: '   ' }), /^name: expected a name of 1 to 100 characters/],
    ['a name that is not a string', JSON.stringify({ name: 42 }), /^name: expected a name of 1 to 100 characters, received 42/],
    ['a name with control characters', JSON.stringify({ name: 'a\nb' }), /^name: .*without control characters/],
    ['text that is not JSON', 'name=CI', /^body: expected JSON/],
  ])('answers 400 to %s', async (_, body, message) => {
    const token = await accessToken(user)
    const before = (await h.accounts.listKeys(user.id, { limit: 100 })).length
    const response = await postJson(token, body)
    expect((await expectError(response, 400, message)).code).toBe('ERR_INVALID_REQUEST')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect((await h.accounts.listKeys(user.id, { limit: 100 })).length).toBe(before)
  })

  it('answers 413 to a body over 64 KiB', async () => {
    const response = await postJson(await accessToken(user), JSON.stringify({ name: 'CI', pad: 'x'.repeat(70_000) }))
    expect(response.status).toBe(413)
  })
})

describe('every bearer route', () => {
  const ROUTES: Array<[method: string, path: string, scope: 'read' | 'write']> = [
    ['GET', '/designs/v2', 'read'],
    ['GET', '/designs/v2/d_x', 'read'],
    ['GET', '/designs/v2/d_x/config', 'read'],
    ['GET', '/analytics/api', 'read'],
    ['GET', '/settings/api-keys', 'read'],
    ['POST', '/settings/api-keys', 'write'],
    ['DELETE', '/settings/api-keys/key_x', 'write'],
  ]

  it.each(ROUTES)('%s %s: answers a CORS preflight with 204, without a token', async (method, path) => {
    const response = await api(path, undefined, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' } })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-methods')).toContain(method)
    expect(response.headers.get('access-control-allow-headers')).toMatch(/Authorization/)
    expect(response.headers.get('access-control-allow-headers')).toMatch(/Content-Type/)
    expect(response.headers.get('www-authenticate')).toBeNull()
  })

  it.each(ROUTES)('%s %s: answers 401 with a challenge, readable by browsers, without a token', async (method, path) => {
    const response = await api(path, undefined, { method, headers: { origin: 'https://app.example' } })
    await expectError(response, 401, /^missing credentials/)
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${RENDER_URL}/.well-known/oauth-protected-resource", scope="read write"`)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/)
  })

  it.each(ROUTES)('%s %s: a render key sent as a bearer token is told where render keys go', async (method, path) => {
    const response = await api(path, createRenderKey().secret, { method })
    const body = await expectError(response, 401, /^invalid credentials: this is a render key \(lk_…\), not an access token\. Render keys go in the dma-api-key header/)
    expect(body.message).toContain('docs/authentication.md')
    expect(response.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", error_description="The token is a render key, not an access token", resource_metadata="${RENDER_URL}/.well-known/oauth-protected-resource"`)
  })

  it.each(ROUTES)('%s %s: success and error responses carry the CORS headers', async (method, path, scope) => {
    const user = await newUser()
    const response = await api(path, await accessToken(user, { scope: scope === 'write' ? 'read write' : 'read' }), { method, headers: { origin: 'https://app.example' } })
    expect([200, 201, 404]).toContain(response.status)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/)
  })

  it('answer bodies of exactly the response schemas the OpenAPI document is generated from', async () => {
    const user = await newUser()
    const id = await idOf(await h.createDesign(user))
    await h.createKey(user)
    const token = await accessToken(user)
    const body = async (path: string, init?: RequestInit) => (await api(path, token, init)).json()
    PaginatedDesignsSchema.strict().parse(await body('/designs/v2'))
    DesignResourceSchema.strict().parse(await body(`/designs/v2/${id}`))
    RenderConfigSchema.strict().parse(await body(`/designs/v2/${id}/config`))
    UsageResponseSchema.strict().parse(await body('/analytics/api?groupBy=hour'))
    ApiKeyListSchema.strict().parse(await body('/settings/api-keys'))
    const created = CreatedApiKeySchema.strict().parse(await body('/settings/api-keys', { method: 'POST' }))
    expect(await body(`/settings/api-keys/${created._id}`, { method: 'DELETE' })).toEqual({ success: true, _id: created._id })
  })

  it('refuse a token issued for the MCP resource', async () => {
    const user = await newUser()
    const mcp = await accessToken(user, { resource: `${RENDER_URL}/api/mcp` })
    const refused = await api('/designs/v2', mcp)
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
  })

  it('serve the protected-resource metadata without a token, with CORS', async () => {
    for (const [path, resource] of [
      ['/.well-known/oauth-protected-resource', RENDER_URL],
      ['/.well-known/oauth-protected-resource/api/mcp', `${RENDER_URL}/api/mcp`],
    ]) {
      const response = await api(path!)
      expect(response.status).toBe(200)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(await response.json()).toMatchObject({ resource, authorization_servers: [`${RENDER_URL}/org/acme`], scopes_supported: ['read', 'write'], bearer_methods_supported: ['header'] })
      const preflight = await api(path!, undefined, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } })
      expect(preflight.status).toBe(204)
    }
  })
})
