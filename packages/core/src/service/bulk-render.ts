/**
 * The bulk operation of `POST {render_url}/bulk`, transport-free.
 *
 * - Items are checked first (design, overrides, variation); an item that fails there is a
 *   failed row and costs nothing.
 * - The remaining items are metered one unit each, all or nothing: if the quota cannot cover
 *   them all, every unit taken is given back and the request fails with `ERR_QUOTA_EXCEEDED`
 *   (a 429), so a client never gets half a carousel. Under concurrent bulks this may refuse a
 *   request that would just have fitted; it never grants more than the limit.
 * - Items render concurrently (bounded), results keep the input order (`results[i]` ↔
 *   `items[i]`), and a failed render is a failed row whose unit is refunded.
 *
 * @module service/bulk-render
 */
import { LithoError } from '../errors.js'
import { meterRenders, type RenderGrant } from '../quota/meter-renders.js'
import { settleRefund } from '../quota/settle-refund.js'
import { PLANS, planOf, renderLimitOf } from '../quota/plans.js'
import { quotaWindow } from '../quota/window.js'
import type { OutputFormat } from '../render/types.js'
import { BULK_DEFAULT_FORMAT, DEFAULT_QUALITY, MASTER_VARIATION } from '../render/defaults.js'
import { BULK_DEFAULT_DELIVERY, DEFAULT_EXPIRES_IN_MINUTES, type BulkRequest } from './params.js'
import { extensionOf, loadPublishedDesign, newId, prepareRender, renderPreparedDocument, type PreparedRender } from './prepare-render.js'
import { clockOf, type QuotaState, type RenderAccount, type RenderServices, type RenderedFile } from './services.js'
import { storeRender } from './store-render.js'

/** One row of a bulk response (docs/http-reference.md, BulkResultRow). */
export interface BulkResultRow {
  index: number
  designId: string
  /** The item's `filename`, else the stored file's name. */
  filename: string
  /** `master` or the variation id. */
  variation: string
  success: boolean
  delivery: 'hosted' | 'signed'
  format: OutputFormat
  /** On success. */
  url?: string
  /** Signed delivery, on success. */
  expiresAt?: string
  /** On success: the stored file's record. */
  file?: Omit<RenderedFile, 'createdAt'> & { createdAt: string }
  warnings: string[]
  /** On failure: why. */
  error?: string
}

/** The body of a bulk response. */
export interface BulkResponseBody {
  success: boolean
  results: BulkResultRow[]
  summary: { total: number; succeeded: number; failed: number }
}

/** The outcome of {@link bulkRender}. */
export interface BulkRenderResult {
  body: BulkResponseBody
  quota: QuotaState
}

/**
 * Renders up to 25 items for one account.
 *
 * @throws LithoError `ERR_QUOTA_EXCEEDED` when the quota cannot cover every renderable item
 * (nothing is rendered or kept); item failures are rows, not errors.
 * @example
 * const { body } = await bulkRender(services, { account: user, request: parseBulkRequest(json) })
 */
export async function bulkRender(services: RenderServices, input: { account: RenderAccount; request: BulkRequest }): Promise<BulkRenderResult> {
  const { account, request } = input
  const delivery = request.delivery ?? BULK_DEFAULT_DELIVERY
  const clock = clockOf(services)
  const bulkId = newId('b')

  const rows: BulkResultRow[] = []
  const ready: Array<{ index: number; prepared: PreparedRender; format: OutputFormat; quality: number }> = []
  const designs = new Map<string, ReturnType<typeof loadPublishedDesign>>()
  for (const [index, item] of request.items.entries()) {
    const format = item.format ?? request.format ?? BULK_DEFAULT_FORMAT
    const quality = item.quality ?? request.quality ?? DEFAULT_QUALITY
    rows.push({ index, designId: item.designId, filename: item.filename ?? '', variation: item.variation ?? MASTER_VARIATION, success: false, delivery, format, warnings: [] })
    try {
      // One lookup per distinct design: a carousel names the same design many times.
      let loading = designs.get(item.designId)
      if (!loading) designs.set(item.designId, (loading = loadPublishedDesign(services.designs, account.id, item.designId)))
      const prepared = prepareRender(await loading, item.overrides, item.variation, { strict: request.strict ?? services.strictOverrides })
      rows[index]!.variation = prepared.variation
      ready.push({ index, prepared, format, quality })
    } catch (error) {
      rows[index]!.error = describeFailure(error)
    }
  }

  const now = clock.now()
  const grants = await meterAll(services, account, bulkId, ready.map((r) => r.index), now)

  let next = 0
  const worker = async (): Promise<void> => {
    while (next < ready.length) {
      const { index, prepared, format, quality } = ready[next++]!
      const row = rows[index]!
      try {
        const result = await renderPreparedDocument(services.renderer, prepared, { format, quality }, services.assetSource)
        const stored = await storeRender(services, result, {
          account,
          renderId: `${bulkId}-${index}`,
          delivery,
          expiresInMinutes: request.expiresIn ?? DEFAULT_EXPIRES_IN_MINUTES,
          now: clock.now(),
        })
        Object.assign(row, {
          success: true,
          url: stored.url,
          ...(stored.expiresAt ? { expiresAt: stored.expiresAt.toISOString() } : {}),
          file: { ...stored.file, createdAt: stored.file.createdAt },
          filename: row.filename || `${bulkId}-${index}.${extensionOf(format)}`,
          warnings: [...prepared.warnings, ...result.warnings].map((w) => w.message),
        })
      } catch (error) {
        row.error = describeFailure(error)
        row.warnings = prepared.warnings.map((w) => w.message)
        await settleRefund(services, grants.get(index)!, 'bulk')
      }
    }
  }
  const concurrency = Math.max(1, Math.min(services.bulkConcurrency ?? 4, ready.length))
  await Promise.all(Array.from({ length: concurrency }, worker))

  const succeeded = rows.filter((r) => r.success).length
  const plan = planOf(services.plans ?? PLANS, account.plan)
  const window = quotaWindow(now, plan.window)
  const limit = renderLimitOf(plan)
  const usage = await services.meter.usage({ subject: account.id, window: window.id })
  const quota: QuotaState = { usage, limit, remaining: Math.max(0, limit - usage), resetAt: window.resetAt }
  return { body: { success: succeeded === rows.length, results: rows, summary: { total: rows.length, succeeded, failed: rows.length - succeeded } }, quota }
}

/** One unit per item, all or nothing (see the module comment). */
async function meterAll(services: RenderServices, account: RenderAccount, bulkId: string, indexes: number[], now: Date): Promise<Map<number, RenderGrant>> {
  const grants = new Map<number, RenderGrant>()
  const settled = await Promise.allSettled(indexes.map((index) => meterRenders(services.meter, { subject: account.id, plan: account.plan, plans: services.plans, id: `${bulkId}-${index}`, now })))
  let failure: unknown
  settled.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') grants.set(indexes[i]!, outcome.value)
    else failure ??= outcome.reason
  })
  if (failure === undefined) return grants
  await Promise.all([...grants.values()].map((grant) => settleRefund(services, grant, 'bulk')))
  if (LithoError.isInstance(failure) && failure.code === 'ERR_QUOTA_EXCEEDED') {
    const details = failure.details as { usage: number; limit: number; resetAt: string; retryAfterSeconds: number }
    const window = planOf(services.plans ?? PLANS, account.plan).window
    const usage = await services.meter.usage({ subject: account.id, window: quotaWindow(now, window).id }).catch(() => details.usage)
    throw new LithoError(
      'ERR_QUOTA_EXCEEDED',
      `The render quota of the ${account.plan} plan (${details.limit} a ${window}) cannot cover ${indexes.length} renders (${Math.max(0, details.limit - usage)} left); it resets at ${details.resetAt}`,
      { details: { ...details, usage, remaining: Math.max(0, details.limit - usage) } },
    )
  }
  throw failure
}

function describeFailure(error: unknown): string {
  if (LithoError.isInstance(error)) return error.message
  return 'the render failed unexpectedly'
}
