/**
 * The render operation of `{render_url}/v1/{design_id}` (GET and POST), transport-free.
 *
 * Order, so that bad input never costs quota: load the design, apply the overrides, resolve the
 * variation (any failure here is a 400/404 and nothing is metered); then consume one render
 * atomically; then render and deliver. A render that fails after consuming (render error,
 * storage error) is refunded: the caller received nothing, as with exports (docs/quotas-and-plans.md).
 *
 * @module service/render-design
 */
import type { OverrideInput } from '../design/overrides.js'
import { attachQuota } from '../quota/error-quota.js'
import { meterRenders } from '../quota/meter-renders.js'
import { settleRefund } from '../quota/settle-refund.js'
import type { OutputFormat, RenderWarning } from '../render/types.js'
import { DEFAULT_DELIVERY, DEFAULT_EXPIRES_IN_MINUTES, type Delivery, type RenderParams } from './params.js'
import { DEFAULT_FORMAT, DEFAULT_QUALITY } from '../render/defaults.js'
import { loadPublishedDesign, newId, prepareRender, renderPreparedDocument, type PreparedRender } from './prepare-render.js'
import { clockOf, type QuotaState, type RenderAccount, type RenderServices, type RenderedFile } from './services.js'
import { storeRender } from './store-render.js'

/** A render request: whose, which design, its validated parameters and its overrides. */
export interface RenderDesignRequest {
  account: RenderAccount
  /** The render code (`design_id` of the render path). */
  renderCode: string
  params: RenderParams
  /** Query overrides, a JSON body, or both (later wins). Reserved names are not overrides. */
  overrides?: OverrideInput | readonly OverrideInput[]
}

/** The JSON render result of `hosted` and `signed` delivery (docs/http-reference.md, RenderResult). */
export interface RenderResultBody {
  success: true
  delivery: 'hosted' | 'signed'
  url: string
  /** Signed delivery only. */
  expiresAt?: string
  format: OutputFormat
  file: Omit<RenderedFile, 'createdAt'> & { createdAt: string }
  /** Ignored overrides and other render warnings, one sentence each. */
  warnings: string[]
}

/** The outcome of {@link renderDesign}: bytes (stream) or a JSON body (hosted, signed). */
export type RenderDesignResult =
  | { delivery: 'stream'; bytes: Uint8Array; contentType: string; format: OutputFormat; width: number; height: number; variation: string; warnings: RenderWarning[]; quota: QuotaState }
  | { delivery: 'hosted' | 'signed'; body: RenderResultBody; warnings: RenderWarning[]; quota: QuotaState }

/**
 * Renders a stored design for its owner, metered.
 *
 * @throws LithoError `ERR_DESIGN_NOT_FOUND`, `ERR_INVALID_OVERRIDE`, `ERR_UNKNOWN_VARIATION`,
 * `ERR_QUOTA_EXCEEDED` (nothing rendered), `ERR_RENDER_BUSY`, `ERR_IMAGE_FETCH`, `ERR_STORAGE`…
 * (refunded when thrown after consuming).
 * @example
 * const result = await renderDesign(services, { account: user, renderCode: 'Xc9Qm2…', params: { format: 'png' }, overrides: 'title.text=Hi' })
 */
export async function renderDesign(services: RenderServices, request: RenderDesignRequest): Promise<RenderDesignResult> {
  const { account, params } = request
  const design = await loadPublishedDesign(services.designs, account.id, request.renderCode)
  const prepared = prepareRender(design, request.overrides, params.variation)
  return renderPrepared(services, {
    account,
    prepared,
    format: params.format ?? DEFAULT_FORMAT,
    quality: params.quality ?? DEFAULT_QUALITY,
    delivery: params.delivery ?? DEFAULT_DELIVERY,
    expiresInMinutes: params.expiresIn ?? DEFAULT_EXPIRES_IN_MINUTES,
  })
}

/** The ports {@link renderPrepared} uses: the meter, the renderer, the file store and a clock. */
export type RenderDeliveryServices = Pick<RenderServices, 'files' | 'meter' | 'retention' | 'renderer' | 'clock' | 'refunds'>

/** A prepared render with its output options resolved (defaults applied by the caller). */
export interface RenderPreparedRequest {
  account: RenderAccount
  prepared: PreparedRender
  format: OutputFormat
  quality: number
  delivery: Delivery
  /** Signed delivery only. */
  expiresInMinutes: number
  /** What the render is, in the report of a refund that failed. @default 'render' */
  operation?: 'render' | 'export'
}

/**
 * The metered half of a render, shared by renders and exports (internal): consume one render,
 * render, deliver (bytes, or a stored file and its URL); on any failure after consuming,
 * refund exactly once and rethrow.
 *
 * @throws LithoError `ERR_QUOTA_EXCEEDED` (nothing rendered, nothing consumed), or what the
 * renderer or the file store threw (refunded).
 */
export async function renderPrepared(services: RenderDeliveryServices, request: RenderPreparedRequest): Promise<RenderDesignResult> {
  const { account, prepared, delivery } = request
  const now = clockOf(services).now()
  const renderId = newId('r')
  const grant = await meterRenders(services.meter, { subject: account.id, plan: account.plan, id: renderId, now })
  const quota: QuotaState = { usage: grant.usage, limit: grant.limit, remaining: grant.remaining, resetAt: grant.resetAt }
  try {
    const result = await renderPreparedDocument(services.renderer, prepared, { format: request.format, quality: request.quality })
    const warnings = [...prepared.warnings, ...result.warnings]
    if (delivery === 'stream')
      return { delivery, bytes: result.bytes, contentType: result.contentType, format: result.format, width: result.width, height: result.height, variation: result.variation, warnings, quota }
    const stored = await storeRender(services, result, {
      account,
      renderId,
      delivery,
      expiresInMinutes: request.expiresInMinutes,
      now: clockOf(services).now(),
    })
    const body: RenderResultBody = {
      success: true,
      delivery,
      url: stored.url,
      ...(stored.expiresAt ? { expiresAt: stored.expiresAt.toISOString() } : {}),
      format: result.format,
      file: { ...stored.file, createdAt: stored.file.createdAt },
      warnings: warnings.map((w) => w.message),
    }
    return { delivery, body, warnings, quota }
  } catch (error) {
    // The caller gets nothing: give the render back (exactly once, whatever happens next).
    if (await settleRefund(services, grant, request.operation ?? 'render')) {
      quota.usage -= 1
      quota.remaining += 1
    }
    // The response still carries the quota headers (see quota/error-quota).
    attachQuota(error, quota)
    throw error
  }
}
