/**
 * The storage quota: bytes of stored renders (hosted and signed files) per account, against the
 * plan's `storageBytes` (Free 500 MB, Basic 10 GB; Pro and Unlimited: no limit, still counted).
 *
 * Counted by the meter, so the check and the increment are one atomic step on every backend and
 * across instances: a file's bytes are consumed under an id made from its key, in a window that
 * never ends, BEFORE the file is put (nothing is stored past the limit), and refunded when the
 * put fails or the file is deleted. The subject is `storage:<accountId>`, apart from the render
 * subject, so bytes never show in the render history.
 *
 * Files stored before counting began are not counted (the file store cannot list them).
 *
 * @module quota/meter-storage
 */
import { createHash } from 'node:crypto'
import type { Meter } from '../contracts/meter.js'
import { LithoError } from '../errors.js'
import { PLANS, planOf, type PlanId, type PlanTable } from './plans.js'

/** The storage of one account, as reported in usage: bytes held, and the plan's limit (null: none). */
export interface StorageUsage {
  usedBytes: number
  limitBytes: number | null
}

/** A window that never ends: far enough to never pass, accepted by every meter. */
const FOREVER = new Date(Date.UTC(9999, 0, 1))
const WINDOW = 'bytes'
/** Unlimited plans are still counted (usage is reported, and a later plan change starts from the truth). */
const NO_LIMIT = Number.MAX_SAFE_INTEGER
const METER_ID = /^[A-Za-z0-9_.:-]{1,200}$/

/**
 * Takes `bytes` of the account's storage for the file `key`, before it is put.
 *
 * @throws LithoError `ERR_STORAGE_QUOTA` with `details` { usage, limit, bytes } when the file would
 * pass the plan's storage limit; nothing is taken then. `ERR_UNKNOWN_PLAN` when `plans` (default
 * `PLANS`) has no such plan.
 * @example
 * await meterStorage(meter, { account: { id: 'u_1', plan: 'free' }, key: 'u_1/r_2.png', bytes: 48_213 })
 */
export async function meterStorage(meter: Meter, request: { account: { id: string; plan: PlanId | null }; key: string; bytes: number; plans?: PlanTable | undefined }): Promise<void> {
  const limit = request.account.plan === null ? null : planOf(request.plans ?? PLANS, request.account.plan).storageBytes
  // A meter takes whole units ≥ 1: an empty file still holds a record.
  const amount = Math.max(1, Math.ceil(request.bytes))
  const result = await meter.consume({ subject: subjectOf(request.account.id), window: WINDOW, id: unitId(request.key), amount, limit: limit ?? NO_LIMIT, expiresAt: FOREVER })
  if (!result.granted) throw storageFull(request.account.plan!, limit!, result.usage, amount)
}

function storageFull(plan: PlanId, limit: number, usage: number, bytes: number): LithoError {
  const needs = bytes > 0 ? ` and this file needs ${formatBytes(bytes)}` : ''
  return new LithoError(
    'ERR_STORAGE_QUOTA',
    `The storage of the ${plan} plan (${formatBytes(limit)} of stored renders) is full: ${formatBytes(usage)} are kept${needs}. Signed files free their space when they expire; use stream delivery, or move to a larger plan.`,
    { details: { usage, limit, bytes } },
  )
}

/**
 * Refuses early when the account's storage is already full (used ≥ limit), before work whose
 * output could not be kept (an export job is refused when queued, not when it finishes). Not
 * a reservation: {@link meterStorage} is still the atomic check when the file is stored.
 *
 * @throws LithoError `ERR_STORAGE_QUOTA` (`details.bytes` is 0) when the storage is full.
 * @example await assertStorageRoom(meter, { id: 'u_1', plan: 'free' })
 */
export async function assertStorageRoom(meter: Pick<Meter, 'usage'>, account: { id: string; plan: PlanId }, plans: PlanTable = PLANS): Promise<void> {
  const { usedBytes, limitBytes } = await storageUsage(meter, account, plans)
  if (limitBytes !== null && usedBytes >= limitBytes) throw storageFull(account.plan, limitBytes, usedBytes, 0)
}

/**
 * Gives back the bytes of the file `key` (its put failed, or it was deleted), once. True when it did.
 *
 * @example await refundStorage(meter, { accountId: 'u_1', key: 'u_1/r_2.png' })
 */
export function refundStorage(meter: Meter, request: { accountId: string; key: string }): Promise<boolean> {
  return meter.refund({ subject: subjectOf(request.accountId), window: WINDOW, id: unitId(request.key) })
}

/**
 * The account's stored bytes and its plan's limit (read from `plans`; a plan the table lacks
 * reports no limit: usage is still shown).
 *
 * @example await storageUsage(meter, { id: 'u_1', plan: 'free' }) // { usedBytes: 48213, limitBytes: 500000000 }
 */
export async function storageUsage(meter: Pick<Meter, 'usage'>, account: { id: string; plan?: PlanId | undefined }, plans: PlanTable = PLANS): Promise<StorageUsage> {
  const usedBytes = await meter.usage({ subject: subjectOf(account.id), window: WINDOW })
  const plan = account.plan === undefined || !Object.hasOwn(plans, account.plan) ? undefined : plans[account.plan]
  return { usedBytes, limitBytes: plan?.storageBytes ?? null }
}

function subjectOf(accountId: string): string {
  return `storage:${accountId}`
}

/** The key itself when it fits the meter's id alphabet (`/` → `:`), else its hash: one id per key either way. */
function unitId(key: string): string {
  const readable = `f:${key.replaceAll('/', ':')}`
  return METER_ID.test(readable) ? readable : `h:${createHash('sha256').update(key, 'utf8').digest('hex')}`
}

function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${+(bytes / 1e9).toFixed(2)} GB`
  if (bytes >= 1e6) return `${+(bytes / 1e6).toFixed(2)} MB`
  if (bytes >= 1e3) return `${+(bytes / 1e3).toFixed(2)} kB`
  return `${bytes} bytes`
}
