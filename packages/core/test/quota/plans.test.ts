// An operator's own plan table: parsing (every field, both sides of each bound), the day and
// week windows, and metering (renders, storage, designs, export-job refunds) against it.
import { randomBytes } from 'node:crypto'
import { memoryDesignStore } from '@litho/storage-adapters/design-store'
import { memoryFileStore } from '@litho/storage-adapters/file-store'
import { memoryJobStore } from '@litho/storage-adapters/job-store'
import { memoryMeter } from '@litho/storage-adapters/memory'
import { describe, expect, it } from 'vitest'
import { MAX_PLAN_LIMIT, MAX_PLANS, PLANS, UNCAPPED_RENDERS, parsePlanTable as parseFromContracts } from '../../src/contracts/index.js'
import {
  LithoError,
  createDesign,
  createExportJobHandler,
  createUrlSigner,
  enqueueExportJob,
  isPlanId,
  meterRenders,
  meterStorage,
  parsePlanTable,
  planOf,
  quotaWindow,
  storageUsage,
  toQuotaErrorBody,
  type RenderResult,
} from '../../src/index.js'
import { rejection } from '../service/helpers.js'

const TEAM = { renders: 3, templates: 2, storageBytes: 1000, window: 'day' }

function tableError(input: unknown): TypeError & { code?: string; issues?: { path: string; message: string }[] } {
  try {
    parsePlanTable(input)
  } catch (error) {
    return error as TypeError
  }
  throw new Error('expected the table to be refused')
}

describe('parsePlanTable', () => {
  it('plans › reads every field; window defaults to month; the key is the id', () => {
    const plans = parsePlanTable({ team: TEAM, solo: { renders: null, templates: null, storageBytes: 0 } })
    expect(plans.team).toEqual({ id: 'team', renders: 3, templates: 2, storageBytes: 1000, window: 'day' })
    expect(plans.solo).toEqual({ id: 'solo', renders: null, templates: null, storageBytes: 0, window: 'month' })
    expect(Object.isFrozen(plans)).toBe(true)
    expect(Object.isFrozen(plans.team)).toBe(true)
    // The contracts entry exports the same function (no renderer needed).
    expect(parseFromContracts).toBe(parsePlanTable)
  })

  it('plans › the default table parses to itself (an id equal to its key is accepted)', () => {
    expect(parsePlanTable(PLANS)).toEqual(PLANS)
    expect(Object.values(PLANS).map((p) => p.window)).toEqual(['month', 'month', 'month', 'month'])
  })

  it('plans › each limit: 0 and MAX_PLAN_LIMIT accepted; a limit past 10^15 (near where counters stop being exact integers, or the uncapped sentinel), -1, 1.5, "100" and a missing field (read as no cap) refused, naming the field', () => {
    for (const field of ['renders', 'templates', 'storageBytes'] as const) {
      expect(parsePlanTable({ p: { ...TEAM, [field]: 0 } }).p![field]).toBe(0)
      expect(parsePlanTable({ p: { ...TEAM, [field]: MAX_PLAN_LIMIT } }).p![field]).toBe(MAX_PLAN_LIMIT)
      expect(parsePlanTable({ p: { ...TEAM, [field]: null } }).p![field]).toBeNull()
      for (const bad of [-1, MAX_PLAN_LIMIT + 1, 1.5, '100', true]) {
        const error = tableError({ p: { ...TEAM, [field]: bad } })
        expect(error.code).toBe('ERR_INVALID_ARG_VALUE')
        expect(error.message).toContain(`p.${field}: expected a whole number from 0 to ${MAX_PLAN_LIMIT}, or null for no limit, received ${JSON.stringify(bad)}`)
      }
      const { [field]: _, ...without } = TEAM
      expect(tableError({ p: without }).message).toContain(`p.${field}: expected a whole number from 0 to ${MAX_PLAN_LIMIT}, or null for no limit, received nothing`)
    }
  })

  it('plans › window: month, week and day accepted; an unknown window refused with the known ones', () => {
    for (const window of ['month', 'week', 'day'] as const) expect(parsePlanTable({ p: { ...TEAM, window } }).p!.window).toBe(window)
    for (const bad of ['year', 'hour', 'Month', 7, null]) expect(tableError({ p: { ...TEAM, window: bad } }).message).toContain(`p.window: expected one of month, week, day, received ${JSON.stringify(bad)}`)
  })

  it('plans › names: 1 and 32 characters accepted; a name that could poison an object or a log ("__proto__", spaces, 33+ characters, upper case, a leading "-" or "_", "") refused', () => {
    expect(Object.keys(parsePlanTable({ a: TEAM, [`p${'x'.repeat(31)}`]: TEAM, 'team-2_b': TEAM }))).toEqual(['a', `p${'x'.repeat(31)}`, 'team-2_b'])
    for (const bad of [`p${'x'.repeat(32)}`, 'Team', '-team', '_team', '', 'te am', 'équipe']) expect(tableError({ [bad]: TEAM }).message).toContain('expected a plan name of 1 to 32 lowercase letters')
    // A JSON "__proto__" key is an own property of a parsed object: refused, never a prototype.
    expect(tableError(JSON.parse('{"__proto__":{"renders":1,"templates":1,"storageBytes":1}}')).message).toContain('"__proto__": expected a plan name')
  })

  it('plans › a typo of a field is refused, naming it (not ignored: a missing cap would be no cap)', () => {
    expect(tableError({ p: { ...TEAM, render: 10 } }).message).toContain('p: unknown field(s) render; a plan has renders, templates, storageBytes and window')
  })

  it('plans › an id that is not the plan\'s key is refused', () => {
    expect(tableError({ team: { ...TEAM, id: 'other' } }).message).toContain('team.id: expected the plan\'s name "team" (or no id), received "other"')
  })

  it('plans › the table: an object of 1 to MAX_PLANS plans; a table of more than 100 plans (an oversized config every error message would list), none, an array, null or a plan that is not an object are refused', () => {
    const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, TEAM]))
    expect(Object.keys(parsePlanTable(many(MAX_PLANS)))).toHaveLength(MAX_PLANS)
    expect(tableError(many(MAX_PLANS + 1)).message).toContain(`(table): expected at most ${MAX_PLANS} plans, received ${MAX_PLANS + 1}`)
    expect(tableError({}).message).toContain('(table): expected at least one plan')
    for (const bad of [[], null, 'free', 42]) expect(tableError(bad).message).toContain('(table): expected an object of plans by name')
    expect(tableError({ p: 100 }).message).toContain('p: expected an object with renders, templates, storageBytes (and window), received 100')
  })

  it('plans › every bad field is listed at once, in `issues` too', () => {
    const error = tableError({ a: { ...TEAM, renders: -1 }, b: { ...TEAM, window: 'year' } })
    expect(error.issues!.map((i) => i.path)).toEqual(['a.renders', 'b.window'])
  })

  it('plans › isPlanId and planOf read the given table; an unknown plan is ERR_UNKNOWN_PLAN naming it and the known ones', () => {
    const plans = parsePlanTable({ team: TEAM })
    expect(isPlanId('team', plans)).toBe(true)
    expect(isPlanId('free', plans)).toBe(false)
    expect(isPlanId('free')).toBe(true)
    expect(isPlanId('constructor', plans)).toBe(false)
    const error = (() => {
      try {
        planOf(plans, 'gold')
      } catch (e) {
        return e as LithoError
      }
    })()!
    expect(LithoError.isInstance(error) && error.code).toBe('ERR_UNKNOWN_PLAN')
    expect(error.message).toBe('This account is on the plan "gold", which this server does not offer (plans: team); ask the operator to move it to one of them.')
    expect(error.details).toEqual({ plan: 'gold', known: ['team'] })
  })
})

describe('plan windows', () => {
  it('plans › a day window: id YYYY-MM-DD, from midnight UTC to the next', () => {
    const w = quotaWindow(new Date('2026-11-26T23:59:59.999Z'), 'day')
    expect([w.id, w.start.toISOString(), w.resetAt.toISOString()]).toEqual(['2026-11-26', '2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z'])
    expect(quotaWindow(new Date('2026-11-27T00:00:00.000Z'), 'day').id).toBe('2026-11-27')
    expect(quotaWindow(new Date('2026-12-31T12:00:00Z'), 'day').resetAt.toISOString()).toBe('2027-01-01T00:00:00.000Z')
  })

  it('plans › a week window: ISO weeks, Monday 00:00 UTC to the next Monday, id YYYY-Www of the ISO week-year', () => {
    const w = quotaWindow(new Date('2026-11-26T10:00:00Z'), 'week')
    expect([w.id, w.start.toISOString(), w.resetAt.toISOString()]).toEqual(['2026-W48', '2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z'])
    // Sunday's last instant belongs to the week; Monday starts the next.
    expect(quotaWindow(new Date('2026-11-29T23:59:59.999Z'), 'week').id).toBe('2026-W48')
    expect(quotaWindow(new Date('2026-11-30T00:00:00.000Z'), 'week').id).toBe('2026-W49')
    // Year edges: 2027-01-01 is a Friday, in week 53 of 2026; 2024-12-30 (Monday) is week 1 of 2025.
    expect(quotaWindow(new Date('2027-01-01T12:00:00Z'), 'week')).toMatchObject({ id: '2026-W53', start: new Date('2026-12-28T00:00:00Z') })
    expect(quotaWindow(new Date('2024-12-30T00:00:00Z'), 'week').id).toBe('2025-W01')
    expect(quotaWindow(new Date('2026-01-01T00:00:00Z'), 'week').id).toBe('2026-W01')
  })

  it('plans › the ids of month, week and day never collide', () => {
    const ids = new Set<string>()
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2028, 0, 1); t += 86_400_000) for (const length of ['month', 'week', 'day'] as const) ids.add(`${length} ${quotaWindow(new Date(t), length).id}`)
    const byId = new Map<string, string>()
    for (const entry of ids) {
      const [length, id] = entry.split(' ') as [string, string]
      expect(byId.get(id) ?? length, id).toBe(length)
      byId.set(id, length)
    }
  })
})

describe('metering against a custom table', () => {
  const plans = parsePlanTable({ team: TEAM, weekly: { ...TEAM, renders: 2, window: 'week' }, open: { renders: null, templates: null, storageBytes: null } })
  const now = new Date('2026-11-26T10:00:00Z')

  it('plans › a daily plan: its limit, its window, and a 429 message that says "a day"', async () => {
    const meter = memoryMeter()
    for (let i = 0; i < 3; i++) {
      const grant = await meterRenders(meter, { subject: 'u_1', plan: 'team', plans, id: `r${i}`, now })
      expect(grant).toMatchObject({ window: '2026-11-26', limit: 3, usage: i + 1, remaining: 2 - i, resetAt: new Date('2026-11-27T00:00:00Z') })
    }
    const error = await rejection(meterRenders(meter, { subject: 'u_1', plan: 'team', plans, id: 'r3', now }))
    expect(error.code).toBe('ERR_QUOTA_EXCEEDED')
    expect(toQuotaErrorBody(error)).toEqual({
      success: false,
      message: 'The render quota of the team plan (3 a day) is used up; it resets at 2026-11-27T00:00:00.000Z',
      data: { usage: 3, limit: 3, remaining: 0, resetAt: '2026-11-27T00:00:00.000Z' },
    })
    expect(error.details).toMatchObject({ retryAfterSeconds: 14 * 3600 })
    // The next day starts from zero.
    expect((await meterRenders(meter, { subject: 'u_1', plan: 'team', plans, id: 'r4', now: new Date('2026-11-27T00:00:00Z') })).usage).toBe(1)
  })

  it('plans › a weekly plan says "a week" and resets on Monday', async () => {
    const meter = memoryMeter()
    await meterRenders(meter, { subject: 'u_1', plan: 'weekly', plans, id: 'a', amount: 2, now })
    const error = await rejection(meterRenders(meter, { subject: 'u_1', plan: 'weekly', plans, id: 'b', now }))
    expect(error.message).toBe('The render quota of the weekly plan (2 a week) is used up; it resets at 2026-11-30T00:00:00.000Z')
  })

  it('plans › an uncapped plan is counted and reports UNCAPPED_RENDERS (Number.MAX_SAFE_INTEGER) as its limit', async () => {
    const meter = memoryMeter()
    const grant = await meterRenders(meter, { subject: 'u_1', plan: 'open', plans, id: 'a', amount: 5000, now })
    expect(UNCAPPED_RENDERS).toBe(Number.MAX_SAFE_INTEGER)
    expect(grant).toMatchObject({ window: '2026-11', usage: 5000, limit: UNCAPPED_RENDERS, remaining: UNCAPPED_RENDERS - 5000 })
    expect(await meter.usage({ subject: 'u_1', window: '2026-11' })).toBe(5000)
  })

  it('plans › a plan the table lacks (also a default one) is ERR_UNKNOWN_PLAN, and nothing is metered', async () => {
    const meter = memoryMeter()
    const error = await rejection(meterRenders(meter, { subject: 'u_1', plan: 'free', plans, id: 'a', now }))
    expect(error.code).toBe('ERR_UNKNOWN_PLAN')
    expect(error.message).toContain('"free", which this server does not offer (plans: team, weekly, open)')
    expect(await meter.usage({ subject: 'u_1', window: '2026-11' })).toBe(0)
    expect((await rejection(meterStorage(meter, { account: { id: 'u_1', plan: 'free' }, key: 'u_1/a.png', bytes: 10, plans }))).code).toBe('ERR_UNKNOWN_PLAN')
  })

  it('plans › storage is limited by the table: 1000 bytes on team; usage reports that limit', async () => {
    const meter = memoryMeter()
    await meterStorage(meter, { account: { id: 'u_1', plan: 'team' }, key: 'u_1/a.png', bytes: 900, plans })
    const error = await rejection(meterStorage(meter, { account: { id: 'u_1', plan: 'team' }, key: 'u_1/b.png', bytes: 101, plans }))
    expect(error.code).toBe('ERR_STORAGE_QUOTA')
    expect(error.details).toMatchObject({ limit: 1000, usage: 900 })
    expect(await storageUsage(meter, { id: 'u_1', plan: 'team' }, plans)).toEqual({ usedBytes: 900, limitBytes: 1000 })
    // A plan the table lacks shows its usage without a limit (usage is a report, not a decision).
    expect(await storageUsage(meter, { id: 'u_1', plan: 'gone' }, plans)).toEqual({ usedBytes: 900, limitBytes: null })
  })

  it('plans › designs are limited by the table: 2 on team; ERR_UNKNOWN_PLAN for a plan it lacks', async () => {
    const services = { designs: memoryDesignStore(), meter: memoryMeter(), plans }
    const document = { version: 2, width: 100, height: 100 }
    const account = { id: 'u_team', plan: 'team' }
    await createDesign(services, { account, name: 'A', document })
    await createDesign(services, { account, name: 'B', document })
    const error = await rejection(createDesign(services, { account, name: 'C', document }))
    expect(error.code).toBe('ERR_TEMPLATE_LIMIT')
    expect(error.message).toContain('The team plan allows 2 designs')
    expect((await rejection(createDesign(services, { account: { id: 'u_x', plan: 'free' }, name: 'A', document }))).code).toBe('ERR_UNKNOWN_PLAN')
  })

  it('plans › an export job on a daily plan is refunded in the day window it was taken in, even after that day', async () => {
    const designs = memoryDesignStore()
    const at = new Date().toISOString()
    await designs.create({ id: 'd_0001', ownerId: 'u_1', name: 'Card', renderCode: `rc_${randomBytes(12).toString('base64url')}`, design: { version: 2, width: 10, height: 10 }, draft: null, createdAt: at, updatedAt: at })
    const meter = memoryMeter()
    const jobs = memoryJobStore()
    let clock = new Date('2026-11-26T23:59:00Z')
    const services = {
      designs,
      files: memoryFileStore({ publicBaseUrl: 'https://render.example.test/files', signer: createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] }) }),
      meter,
      renderer: { render: async (): Promise<RenderResult> => Promise.reject(new LithoError('ERR_RENDER_FAILED', 'broken')) },
      jobs,
      queue: { enqueue: async () => {} },
      clock: { now: () => clock },
      plans,
      refunds: { retryDelaysMs: [] },
    }
    const ack = await enqueueExportJob(services, { account: { id: 'u_1', plan: 'team' }, id: 'd_0001', request: { delivery: 'hosted', params: {}, overrides: {} } })
    expect(await meter.usage({ subject: 'u_1', window: '2026-11-26' })).toBe(1)
    expect((await jobs.get(ack.body.exportId))!.request).toMatchObject({ plan: 'team', window: '2026-11-26' })
    // The render fails the next day: the unit goes back to the 26th, not the 27th.
    clock = new Date('2026-11-27T00:01:00Z')
    await createExportJobHandler(services)({ id: ack.body.exportId, attempt: 1 })
    expect((await jobs.get(ack.body.exportId))!.status).toBe('failed')
    expect(await meter.usage({ subject: 'u_1', window: '2026-11-26' })).toBe(0)
  })

  it('plans › a job recorded before windows were kept is refunded in its plan\'s window of createdAt', async () => {
    const meter = memoryMeter()
    const jobs = memoryJobStore()
    const designs = memoryDesignStore()
    await meter.consume({ subject: 'u_1', window: '2026-W48', amount: 1, limit: 2, id: 'exp_old', expiresAt: new Date('2026-11-30T00:00:00Z') })
    await jobs.create({ id: 'exp_old', ownerId: 'u_1', designId: 'd_missing', status: 'queued', request: { delivery: 'hosted', params: {}, overrides: {}, plan: 'weekly' }, attempts: 0, createdAt: '2026-11-26T10:00:00.000Z', updatedAt: '2026-11-26T10:00:00.000Z' })
    const handler = createExportJobHandler({ designs, files: memoryFileStore({ publicBaseUrl: 'https://x.test/files', signer: createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] }) }), meter, renderer: { render: async () => Promise.reject(new Error('unused')) }, jobs, queue: { enqueue: async () => {} }, plans, refunds: { retryDelaysMs: [] } })
    await handler({ id: 'exp_old', attempt: 1 })
    expect((await jobs.get('exp_old'))!.status).toBe('failed')
    expect(await meter.usage({ subject: 'u_1', window: '2026-W48' })).toBe(0)
  })
})
