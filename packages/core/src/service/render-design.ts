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
import { meterRenders, quotaOfGrant } from '../quota/meter-renders.js'
import { settleRefund } from '../quota/settle-refund.js'
import type { OutputFormat, RenderWarning } from '../render/types.js'
import { DEFAULT_DELIVERY, DEFAULT_EXPIRES_IN_MINUTES, type Delivery, type RenderParams } from './params.js'
import { DEFAULT_FORMAT, DEFAULT_QUALITY } from '../render/defaults.js'
import { loadPublishedDesign, newId, prepareRender, renderPreparedDocument, type PreparedRender } from './prepare-render.js'
import { clockOf, type QuotaState, type RenderAccount, type RenderServices, type RenderedFile } from './services.js'
import { storeRender } from './store-render.js'
import { outputKey, usesRemoteAssets } from './output-key.js'
import type { OutputCacheEntry } from './output-cache.js'

/** A render request: whose, which design, its validated parameters and its overrides. */
export interface RenderDesignRequest {
  account: RenderAccount
  /** The render code (`design_id` of the render path). */
  renderCode: string
  params: RenderParams
  /** Query overrides, a JSON body, or both (later wins). Reserved names are not overrides. */
  overrides?: OverrideInput | readonly OverrideInput[]
  /**
   * Stream delivery only: called with the render's ETag (its output key, quoted) before
   * anything is rendered; `true` answers "not modified" (metered as a render, nothing rendered).
   * The HTTP adapter passes its `If-None-Match` comparison here.
   */
  ifNoneMatch?: (etag: string) => boolean
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

/**
 * The outcome of a render: bytes (stream) or a JSON body (hosted, signed). A stream result of
 * {@link renderDesign} has its `etag` (a strong entity tag: the quoted output key of
 * service/output-key) and, with an output cache, whether it was a `hit` or a `miss`.
 */
export type RenderDesignResult =
  | { delivery: 'stream'; bytes: Uint8Array; contentType: string; format: OutputFormat; width: number; height: number; variation: string; warnings: RenderWarning[]; quota: QuotaState; etag?: string; cache?: 'hit' | 'miss' }
  | { delivery: 'hosted' | 'signed'; body: RenderResultBody; warnings: RenderWarning[]; quota: QuotaState }

/** The answer of {@link renderDesign} when `ifNoneMatch` matched: metered, nothing rendered. */
export interface RenderNotModified {
  delivery: 'not-modified'
  etag: string
  /** The request's own warnings (ignored overrides). */
  warnings: RenderWarning[]
  quota: QuotaState
}

/**
 * Renders a stored design for its owner, metered.
 *
 * @throws LithoError `ERR_DESIGN_NOT_FOUND`, `ERR_INVALID_OVERRIDE`, `ERR_UNKNOWN_VARIATION`,
 * `ERR_QUOTA_EXCEEDED` (nothing rendered), `ERR_RENDER_BUSY`, `ERR_IMAGE_FETCH`, `ERR_STORAGE`…
 * (refunded when thrown after consuming).
 * @example
 * const result = await renderDesign(services, { account: user, renderCode: 'Xc9Qm2…', params: { format: 'png' }, overrides: 'title.text=Hi' })
 */
export async function renderDesign(services: RenderServices, request: RenderDesignRequest & { ifNoneMatch?: undefined }): Promise<RenderDesignResult>
export async function renderDesign(services: RenderServices, request: RenderDesignRequest): Promise<RenderDesignResult | RenderNotModified>
export async function renderDesign(services: RenderServices, request: RenderDesignRequest): Promise<RenderDesignResult | RenderNotModified> {
  const { account, params } = request
  const design = await loadPublishedDesign(services.designs, account.id, request.renderCode)
  const prepared = prepareRender(design, request.overrides, params.variation, { strict: params.strict ?? services.strictOverrides })
  const format = params.format ?? DEFAULT_FORMAT
  const quality = params.quality ?? DEFAULT_QUALITY
  const delivery = params.delivery ?? DEFAULT_DELIVERY
  let output: RenderPreparedRequest['output']
  if (delivery === 'stream') {
    const key = outputKey({ accountId: account.id, designId: design.id, designVersion: design.version, prepared, format, quality })
    const etag = `"${key}"`
    if (request.ifNoneMatch?.(etag) === true) {
      // Every fetch of a render URL is a render of the quota (docs/quotas-and-plans.md), answered
      // from the client's cache or not: metered, nothing to refund (nothing can fail after it).
      const grant = await meterRenders(services.meter, { subject: account.id, plan: account.plan, plans: services.plans, id: newId('r'), now: clockOf(services).now() })
      return { delivery: 'not-modified', etag, warnings: prepared.warnings, quota: quotaOfGrant(grant) }
    }
    // What a remote URL serves may change: cache such output no longer than the images it used.
    const remote = usesRemoteAssets(prepared.document) || usesRemoteAssets(prepared.resolved.document)
    // The lookup starts now, beside the meter's write (a shared tier is a file store read); it never rejects.
    const found = services.outputCache?.get(key)
    output = { key, ...(remote ? { ttlMs: services.outputCache?.remoteTtlMs ?? 0 } : {}), ...(found ? { found } : {}) }
  }
  return renderPrepared(services, {
    account,
    prepared,
    format,
    quality,
    delivery,
    expiresInMinutes: params.expiresIn ?? DEFAULT_EXPIRES_IN_MINUTES,
    ...(output ? { output } : {}),
  })
}

/** The ports {@link renderPrepared} uses: the meter, the renderer, the file store and a clock. */
export type RenderDeliveryServices = Pick<RenderServices, 'files' | 'meter' | 'retention' | 'renderer' | 'clock' | 'refunds' | 'outputCache' | 'plans' | 'assetSource'>

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
  /**
   * Stream delivery: the output key (the ETag of the result) and, for output that must not be
   * kept long, a TTL. With `services.outputCache`, the output is looked up (`found`: a lookup
   * already started) and kept under it.
   */
  output?: { key: string; ttlMs?: number; found?: Promise<OutputCacheEntry | undefined> }
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
  const grant = await meterRenders(services.meter, { subject: account.id, plan: account.plan, plans: services.plans, id: renderId, now })
  const quota: QuotaState = quotaOfGrant(grant)
  try {
    if (delivery === 'stream' && request.output !== undefined) return { ...(await streamOutput(services, request, request.output)), quota }
    const result = await renderPreparedDocument(services.renderer, prepared, { format: request.format, quality: request.quality }, services.assetSource)
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

/** A stream render with an output key: from the output cache when it holds it, else rendered (and kept). */
async function streamOutput(services: RenderDeliveryServices, request: RenderPreparedRequest, output: NonNullable<RenderPreparedRequest['output']>): Promise<Omit<Extract<RenderDesignResult, { delivery: 'stream' }>, 'quota'>> {
  const cache = services.outputCache
  const etag = `"${output.key}"`
  const found = await (output.found ?? cache?.get(output.key))
  if (found !== undefined) return { delivery: 'stream', ...found, warnings: [...request.prepared.warnings, ...found.warnings], etag, cache: 'hit' }
  const result = await renderPreparedDocument(services.renderer, request.prepared, { format: request.format, quality: request.quality }, services.assetSource)
  // Only the fields of a render result: an embedder's renderer may return more, which a shared cache would store.
  const entry = { bytes: result.bytes, contentType: result.contentType, format: result.format, width: result.width, height: result.height, variation: result.variation, warnings: result.warnings }
  await cache?.set(output.key, entry, output.ttlMs === undefined ? {} : { ttlMs: output.ttlMs })
  return { delivery: 'stream', ...entry, warnings: [...request.prepared.warnings, ...result.warnings], etag, ...(cache ? { cache: 'miss' as const } : {}) }
}
