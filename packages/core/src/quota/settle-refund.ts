/**
 * Refunds that are never lost: {@link settleRefund} gives a render back with a few bounded
 * retries and, when the meter still fails, writes the refund down in the {@link RefundLedger};
 * {@link reconcileRefunds} (run by `litho serve` at start and periodically) gives back what
 * the ledger holds. Both are safe to repeat: `Meter.refund` is exactly-once by id, so a refund
 * that in fact went through before an error is never given twice.
 *
 * @module quota/settle-refund
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Meter } from '../contracts/meter.js'
import { LithoError } from '../errors.js'
import type { RenderGrant } from './meter-renders.js'
import { refundKey, type PendingRefund, type RefundLedger } from './refund-ledger.js'

/** How failed refunds are handled: where they are written down and who hears about them. */
export interface RefundSettings {
  /** Where a refund that still fails after the retries waits for {@link reconcileRefunds}. */
  ledger?: RefundLedger
  /**
   * Told of every refund that failed (recorded or not). A refund that could not be recorded
   * either is reported as a LithoError `ERR_STORAGE` whose `details` hold everything needed to
   * give it back by hand. @default console.error
   */
  report?: (error: unknown) => void
  /** Delays before each retry of a failing refund. @default [100, 400] (three tries, about half a second) */
  retryDelaysMs?: readonly number[]
}

/** The ports {@link settleRefund} uses. */
export interface RefundServices {
  meter: Meter
  refunds?: RefundSettings
}

/** What is refunded: a grant's meter key and id. */
export type RefundTarget = Pick<RenderGrant, 'subject' | 'window' | 'id'>

const DEFAULT_RETRY_DELAYS_MS: readonly number[] = Object.freeze([100, 400])
const defaultReport = (error: unknown): void => console.error('[litho]', error)

/**
 * Gives back a granted consumption. Never throws: a meter that fails is retried
 * (`retryDelaysMs`), then the refund is recorded in the ledger for {@link reconcileRefunds} and
 * reported; if that fails too, it is reported with every detail (subject, window, id,
 * operation, both errors) so an operator can act.
 *
 * Resolves true when the units were given back now, false otherwise (already refunded, or
 * recorded for later).
 *
 * @example
 * if (await settleRefund(services, grant, 'render')) quota.remaining += 1
 */
export async function settleRefund(services: RefundServices, target: RefundTarget, operation: string): Promise<boolean> {
  const settings = services.refunds ?? {}
  const report = settings.report ?? defaultReport
  const delays = settings.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
  const request = { subject: target.subject, window: target.window, id: target.id }
  let lastError: unknown
  for (let attempt = 0; attempt <= delays.length; attempt++) {
    if (attempt > 0) await sleep(delays[attempt - 1]!)
    try {
      return await services.meter.refund(request)
    } catch (error) {
      lastError = error
    }
  }
  const pending: PendingRefund = { ...request, operation, recordedAt: new Date().toISOString(), tries: delays.length + 1, lastError: messageOf(lastError) }
  const what = `the refund of ${operation} ${target.id} (subject ${target.subject}, window ${target.window}) failed ${pending.tries} times (${pending.lastError})`
  if (!settings.ledger) {
    report(new LithoError('ERR_STORAGE', `${what}; no refund ledger is configured, so it must be given back by hand: Meter.refund(${JSON.stringify(request)})`, { cause: lastError, details: { refund: pending } }))
    return false
  }
  try {
    await settings.ledger.record(pending)
    report(new LithoError('ERR_STORAGE', `${what}; recorded, it is given back when the meter answers again (reconcileRefunds)`, { cause: lastError, details: { refund: pending } }))
  } catch (recordError) {
    report(
      new LithoError(
        'ERR_STORAGE',
        `REFUND NOT RECORDED: ${what}, and the refund ledger failed too (${messageOf(recordError)}); give it back by hand: Meter.refund(${JSON.stringify(request)})`,
        { cause: recordError, details: { refund: pending, ledgerError: messageOf(recordError) } },
      ),
    )
  }
  return false
}

/** The outcome of {@link reconcileRefunds}. */
export interface ReconcileSummary {
  /** Given back now. */
  refunded: number
  /** Already given back (the meter said so): removed from the ledger. */
  alreadySettled: number
  /** Still failing: kept for the next run. */
  pending: number
}

/**
 * Gives back every refund the ledger holds, and removes the ones that are settled. Safe to run
 * at any time, on any number of instances at once: a refund the meter already took returns
 * false and is just removed. A meter that still fails leaves its refunds pending: the run stops
 * at the first failure (its `tries` counted up, the rest not tried), and reports it once.
 *
 * @throws LithoError `ERR_STORAGE` when the ledger itself cannot be read or written.
 * @example
 * const { refunded, pending } = await reconcileRefunds({ meter, refunds: { ledger: stateStoreRefundLedger(authState) } })
 */
export async function reconcileRefunds(services: RefundServices & { refunds: RefundSettings & { ledger: RefundLedger } }): Promise<ReconcileSummary> {
  const { ledger } = services.refunds
  const report = services.refunds.report ?? defaultReport
  const summary: ReconcileSummary = { refunded: 0, alreadySettled: 0, pending: 0 }
  const settled: string[] = []
  const retried: PendingRefund[] = []
  let firstError: unknown
  const all = await ledger.list()
  for (const refund of all) {
    // The meter is failing: the rest wait for the next run rather than each waiting for an error.
    if (firstError !== undefined) {
      summary.pending += 1
      continue
    }
    try {
      if (await services.meter.refund({ subject: refund.subject, window: refund.window, id: refund.id })) summary.refunded += 1
      else summary.alreadySettled += 1
      settled.push(refundKey(refund))
    } catch (error) {
      firstError ??= error
      summary.pending += 1
      retried.push({ ...refund, tries: refund.tries + 1, lastError: messageOf(error) })
    }
  }
  if (settled.length > 0 || retried.length > 0) await ledger.settle(settled, retried)
  if (firstError !== undefined)
    report(new LithoError('ERR_STORAGE', `${summary.pending} pending refund(s) still fail (${messageOf(firstError)}); they are retried at the next reconciliation`, { cause: firstError, details: { ...summary } }))
  return summary
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
