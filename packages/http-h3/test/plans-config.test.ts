// LITHO_PLANS and LITHO_DEFAULT_PLAN as read by `litho serve` and the admin commands.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PLANS } from '@litho/core'
import { afterAll, describe, expect, it } from 'vitest'
import { MAX_PLANS_FILE_BYTES, readPlanSettings } from '../src/plans-config.js'

const dir = mkdtempSync(join(tmpdir(), 'litho-plans-config-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const TEAM = { renders: 10, templates: null, storageBytes: null, window: 'week' }

describe('readPlanSettings', () => {
  it('plans › unset: the default table and free', () => {
    expect(readPlanSettings({})).toEqual({ plans: PLANS, defaultPlan: 'free' })
    expect(readPlanSettings({ LITHO_PLANS: ' ', LITHO_DEFAULT_PLAN: 'pro' })).toEqual({ plans: PLANS, defaultPlan: 'pro' })
  })

  it('plans › JSON text and a file give the same table', () => {
    const file = join(dir, 'plans.json')
    writeFileSync(file, JSON.stringify({ team: TEAM }))
    const fromText = readPlanSettings({ LITHO_PLANS: JSON.stringify({ team: TEAM }), LITHO_DEFAULT_PLAN: 'team' })
    expect(fromText.plans.team).toEqual({ id: 'team', ...TEAM })
    expect(readPlanSettings({ LITHO_PLANS: file, LITHO_DEFAULT_PLAN: 'team' })).toEqual(fromText)
  })

  it('plans › errors name the variable, the file and the field', () => {
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, JSON.stringify({ team: { ...TEAM, window: 'year' } }))
    expect(() => readPlanSettings({ LITHO_PLANS: bad })).toThrow(`LITHO_PLANS (${bad}): team.window: expected one of month, week, day, received "year"`)
    writeFileSync(bad, '{ nope')
    expect(() => readPlanSettings({ LITHO_PLANS: bad })).toThrow(`LITHO_PLANS: the file ${JSON.stringify(bad)} is not valid JSON`)
    expect(() => readPlanSettings({ LITHO_PLANS: '{"team":' })).toThrow('LITHO_PLANS: is not valid JSON')
    expect(() => readPlanSettings({ LITHO_PLANS: JSON.stringify({ team: TEAM }) })).toThrow('LITHO_DEFAULT_PLAN: unset, so "free", which LITHO_PLANS does not define (plans: team)')
    expect(() => readPlanSettings({ LITHO_DEFAULT_PLAN: 'gold' })).toThrow('LITHO_DEFAULT_PLAN: "gold" is not a plan of the default table (plans: free, basic, pro, unlimited)')
    expect(() => readPlanSettings({ LITHO_PLANS: join(dir, 'none.json') })).toThrow(/LITHO_PLANS: expected a JSON object or the path of a JSON file, and could not read the file .* \(ENOENT\)/)
  })

  it('plans › a LITHO_PLANS path to a device or a folder (read without end, or not at all) is refused before it is read', () => {
    expect(() => readPlanSettings({ LITHO_PLANS: '/dev/zero' })).toThrow('LITHO_PLANS: "/dev/zero" is not a regular file')
    expect(() => readPlanSettings({ LITHO_PLANS: dir })).toThrow(`LITHO_PLANS: ${JSON.stringify(dir)} is not a regular file`)
  })

  it('plans › a LITHO_PLANS file larger than 1 MiB (memory exhaustion at start) is refused before it is read', () => {
    const huge = join(dir, 'huge.json')
    writeFileSync(huge, Buffer.alloc(MAX_PLANS_FILE_BYTES + 1, 0x20))
    expect(() => readPlanSettings({ LITHO_PLANS: huge })).toThrow(`LITHO_PLANS: the file ${JSON.stringify(huge)} has ${MAX_PLANS_FILE_BYTES + 1} bytes, more than ${MAX_PLANS_FILE_BYTES}`)
    writeFileSync(huge, Buffer.concat([Buffer.from(JSON.stringify({ free: TEAM })), Buffer.alloc(MAX_PLANS_FILE_BYTES - 100, 0x20)]))
    expect(readPlanSettings({ LITHO_PLANS: huge }).plans.free!.renders).toBe(10)
  })
})
