// createLithoApp({ plans }): renders, bulks and export jobs metered against an operator's own
// plan table, with the quota headers of its limit and window; an uncapped plan; a user whose
// stored plan the table lacks; a bad table refused when the app is made.
import { PLANS, UNCAPPED_RENDERS, parsePlanTable } from '@litho/core'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { createLithoApp } from '../src/index.js'
import { RENDER_URL, createHarness, expectError, type Harness } from './_harness.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'

const plans = parsePlanTable({
  daily: { renders: 2, templates: 1, storageBytes: null, window: 'day' },
  weekly: { renders: 3, templates: null, storageBytes: null, window: 'week' },
  open: { renders: null, templates: null, storageBytes: null },
})

let h: Harness | undefined
const { accessToken, api } = oauthHelpers(() => h!)
afterEach(async () => {
  await h?.close()
  h = undefined
})

async function fixture(plan: string) {
  h = await createHarness({ plans })
  const user = await h.createUser(plan)
  const key = await h.createKey(user)
  const code = await h.createDesign(user)
  return { h, user, key, code, render: () => h!.fetch(`/v1/${code}`, { headers: { 'dma-api-key': key } }) }
}

describe('createLithoApp({ plans })', () => {
  it('plans › a daily plan: renders metered against its limit, headers of its day, a 429 that says "a day"', async () => {
    const { h, user, render } = await fixture('daily')
    // The harness clock: 2026-11-23T12:00:00Z (a Monday).
    const first = await render()
    expect(first.status).toBe(200)
    expect([first.headers.get('x-quota-limit'), first.headers.get('x-quota-remaining'), first.headers.get('x-quota-reset')]).toEqual(['2', '1', '2026-11-24T00:00:00.000Z'])
    expect((await render()).headers.get('x-quota-remaining')).toBe('0')
    const refused = await render()
    const body = await expectError(refused, 429, /^The render quota of the daily plan \(2 a day\) is used up; it resets at 2026-11-24T00:00:00.000Z$/)
    expect(body.data).toEqual({ usage: 2, limit: 2, remaining: 0, resetAt: '2026-11-24T00:00:00.000Z' })
    expect(refused.headers.get('retry-after')).toBe(String(12 * 3600))
    expect(await h.meter.usage({ subject: user.id, window: '2026-11-23' })).toBe(2)
    // The next day starts from zero.
    h.clock.set(new Date('2026-11-24T00:00:00Z'))
    const next = await render()
    expect([next.status, next.headers.get('x-quota-remaining'), next.headers.get('x-quota-reset')]).toEqual([200, '1', '2026-11-25T00:00:00.000Z'])
  })

  it('plans › a weekly plan: a bulk is metered per item against it, and its headers name the Monday it resets', async () => {
    const { h, key, code } = await fixture('weekly')
    const bulk = (n: number) => h.fetch('/bulk', { method: 'POST', headers: { 'dma-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ items: Array.from({ length: n }, () => ({ designId: code })) }) })
    const ok = await bulk(2)
    expect(ok.status).toBe(200)
    expect([ok.headers.get('x-quota-limit'), ok.headers.get('x-quota-remaining'), ok.headers.get('x-quota-reset')]).toEqual(['3', '1', '2026-11-30T00:00:00.000Z'])
    const refused = await bulk(2)
    await expectError(refused, 429, /^The render quota of the weekly plan \(3 a week\) cannot cover 2 renders \(1 left\); it resets at 2026-11-30T00:00:00.000Z$/)
  })

  it('plans › an uncapped plan (renders: null): counted, never refused, X-Quota-Limit is Number.MAX_SAFE_INTEGER', async () => {
    const { h, user, render } = await fixture('open')
    await h.meter.consume({ subject: user.id, window: '2026-11', amount: 1_000_000, limit: UNCAPPED_RENDERS, id: 'many', expiresAt: new Date('2026-12-01T00:00:00Z') })
    const response = await render()
    expect(response.status).toBe(200)
    expect(response.headers.get('x-quota-limit')).toBe('9007199254740991')
    expect(response.headers.get('x-quota-remaining')).toBe(String(Number.MAX_SAFE_INTEGER - 1_000_001))
    expect(response.headers.get('x-quota-reset')).toBe('2026-12-01T00:00:00.000Z')
    expect(await h.meter.usage({ subject: user.id, window: '2026-11' })).toBe(1_000_001)
  })

  it('plans › a user whose stored plan the table lacks gets 403 ERR_UNKNOWN_PLAN naming it and the known plans; nothing is metered', async () => {
    const { h, user, render } = await fixture('free')
    const response = await render()
    const body = await expectError(response, 403, /^This account is on the plan "free", which this server does not offer \(plans: daily, weekly, open\); ask the operator to move it to one of them\.$/)
    expect(body.code).toBe('ERR_UNKNOWN_PLAN')
    expect(await h.meter.usage({ subject: user.id, window: '2026-11' })).toBe(0)
    // Moved to a plan of the table, the same user renders.
    await h.accounts.updateUser({ ...user, plan: 'daily' })
    expect((await render()).status).toBe(200)
  })

  it('plans › an export job on a daily plan is metered in its day, with the headers of that day, and its usage shows', async () => {
    h = await createHarness({ plans, withJobs: {}, withOAuth: {} })
    const user = await h.createUser('daily', PASSWORD)
    await h.createDesign(user)
    const designId = (await h.designs.listByOwner(user.id, { offset: 0, limit: 1 })).items[0]!.id
    const token = await accessToken(user)
    const enqueue = () => api(`/designs/v2/${designId}/export/jobs`, token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ delivery: 'hosted' }) })
    const queued = await enqueue()
    expect(queued.status).toBe(202)
    expect([queued.headers.get('x-quota-limit'), queued.headers.get('x-quota-remaining'), queued.headers.get('x-quota-reset')]).toEqual(['2', '1', '2026-11-24T00:00:00.000Z'])
    expect(await h.meter.usage({ subject: user.id, window: '2026-11-23' })).toBe(1)
    await enqueue()
    await expectError(await enqueue(), 429, /\(2 a day\)/)
  })

  it('plans › the MCP create_design tool counts designs against the table (1 on daily), and names an unknown plan', async () => {
    h = await createHarness({ plans, withOAuth: {} })
    const call = async (user: Awaited<ReturnType<Harness['createUser']>>, name: string, args: Record<string, unknown>) => {
      const token = await accessToken(user, { resource: `${RENDER_URL}/api/mcp` })
      const transport = new StreamableHTTPClientTransport(new URL(`${RENDER_URL}/api/mcp`), { fetch: async (url, init) => h!.app.fetch(new Request(url, init)), requestInit: { headers: { authorization: `Bearer ${token}` } } })
      const client = new Client({ name: 'plans-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
      await client.connect(transport)
      const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ type: string; text?: string }> }
      await client.close()
      return { isError: result.isError === true, text: result.content.map((c) => c.text ?? '').join('\n') }
    }
    const document = { version: 2, width: 100, height: 100, components: [] }
    const daily = await h.createUser('daily', PASSWORD)
    expect((await call(daily, 'create_design', { name: 'One', document })).isError).toBe(false)
    const second = await call(daily, 'create_design', { name: 'Two', document })
    expect(second).toMatchObject({ isError: true, text: expect.stringContaining('The daily plan allows 1 designs') })
    const stranded = await h.createUser('free', PASSWORD)
    expect(await call(stranded, 'create_design', { name: 'One', document })).toMatchObject({ isError: true, text: expect.stringContaining('This account is on the plan "free", which this server does not offer (plans: daily, weekly, open)') })
  })

  it('plans › without plans, the default table applies (free: 100 a month)', async () => {
    h = await createHarness()
    const user = await h.createUser('free')
    const key = await h.createKey(user)
    const code = await h.createDesign(user)
    const response = await h.fetch(`/v1/${code}`, { headers: { 'dma-api-key': key } })
    expect([response.headers.get('x-quota-limit'), response.headers.get('x-quota-reset')]).toEqual([String(PLANS.free.renders), '2026-12-01T00:00:00.000Z'])
  })

  it('plans › a bad table is refused when the app is made, naming the option and the field', async () => {
    h = await createHarness()
    const make = (bad: unknown) => () => createLithoApp({ designs: h!.designs, accounts: h!.accounts, files: h!.files, meter: h!.meter, signer: h!.signer, renderer: { render: async () => Promise.reject(new Error('unused')) }, renderUrl: 'http://render.test', plans: bad as never })
    expect(make({ team: { renders: -5, templates: null, storageBytes: null } })).toThrow('Expected option plans to be a plan table: team.renders: expected a whole number from 0 to 1000000000000000, or null for no limit, received -5')
    expect(make({ team: { renders: 5, templates: null, storageBytes: null, window: 'year' } })).toThrow('team.window: expected one of month, week, day, received "year"')
    expect(make({})).toThrow('(table): expected at least one plan')
  })
})
