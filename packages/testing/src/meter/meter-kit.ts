/**
 * The context, helpers and types the meter cases share (the cases themselves are in
 * `./cases/`, one file per topic; `./meter-cases.ts` lists them in order).
 *
 * @module meter/meter-kit
 */
import type { ConsumeRequest, Meter, MeterCapabilities, MeterKey, UsageHour } from '@litho/core/contracts'
import { expect } from 'vitest'
import { expectInvalid, type InvalidCode } from '../_expect.js'
/** What a case gets: the suite's meter, the factory, and keys unique to this run. */
export interface MeterCaseContext {
  /** The meter created for the suite (disposed after the last case). */
  meter: Meter
  /** Creates another meter over the same storage; the case disposes it. */
  create: () => Promise<Meter>
  /** A key whose subject is unique to this run and `label` (window `w1` unless given). */
  key: (label: string, window?: string) => MeterKey
  /** A consume request on `key`: amount 1, limit 10, a fresh id, expiring in 10 minutes. */
  request: (key: MeterKey, fields?: Partial<ConsumeRequest>) => ConsumeRequest
}

/** One case of the suite. */
export interface MeterCase {
  /** Stable title, `meter › <behaviour>`; also the name to skip it by. */
  title: string
  /** The capability the case tests; it is skipped when the meter does not declare it. */
  needs?: keyof MeterCapabilities
  /** The optional method the case tests; it is skipped when the meter does not have it. */
  needsMethod?: 'sweep'
  run: (context: MeterCaseContext) => Promise<void>
}

/** A prefix unique to one run, so runs against a shared Redis never see each other's keys. */
export function createRunPrefix(): string {
  return `run-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`
}

/** Builds the per-run helpers of {@link MeterCaseContext}. */
export function createMeterCaseContext(meter: Meter, create: () => Meter | Promise<Meter>, prefix = createRunPrefix()): MeterCaseContext {
  let ids = 0
  return {
    meter,
    create: async () => create(),
    key: (label, window = 'w1') => ({ subject: `${prefix}.${label}`, window }),
    request: (key, fields = {}) => ({
      ...key,
      amount: 1,
      limit: 10,
      id: `${prefix}.id-${++ids}`,
      expiresAt: new Date(Date.now() + 10 * 60_000),
      ...fields,
    }),
  }
}

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

/**
 * The first instant of the UTC month before the current one. History cases count at instants
 * around it, so they cross a month (a meter may store history by month) and stay well within
 * the 400 days meters keep hours, whenever the suite runs.
 */
export function lastMonthStart(): number {
  const now = new Date()
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)
}

/** The `hour` of a {@link UsageHour}: the ISO string of the hour's first instant. */
export function hourOf(ms: number): string {
  return new Date(Math.floor(ms / HOUR) * HOUR).toISOString()
}

/** Every case, in the order they run. */
/** Subjects, windows and ids outside `[A-Za-z0-9_.:-]{1,200}`, with the code each must reject with. */
export const BAD_NAMES: ReadonlyArray<[string, unknown, InvalidCode]> = [
  ['empty', '', 'ERR_INVALID_ARG_VALUE'],
  ['with a slash', 'a/b', 'ERR_INVALID_ARG_VALUE'],
  ['with a space', 'a b', 'ERR_INVALID_ARG_VALUE'],
  ['with a brace', 'a{b}', 'ERR_INVALID_ARG_VALUE'],
  ['non-ASCII', 'é', 'ERR_INVALID_ARG_VALUE'],
  ['of 201 characters', 'x'.repeat(201), 'ERR_INVALID_ARG_VALUE'],
  ['a number', 42, 'ERR_INVALID_ARG_TYPE'],
  ['missing', undefined, 'ERR_INVALID_ARG_TYPE'],
]



// --- internal helpers ---

/** {@link expectInvalid}, and then `key` must still be at 0: a rejected call counts nothing. */
export async function expectInvalidLeavesZero(meter: Meter, key: MeterKey, cases: Array<[label: string, call: () => Promise<unknown>, code: InvalidCode]>): Promise<void> {
  await expectInvalid(cases)
  expect(await meter.usage(key), 'usage after rejected calls').toBe(0)
}
