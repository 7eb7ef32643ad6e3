/**
 * The synchronous export operations of `/designs/v2/{id}/export`, `/export/driver-upload` and
 * `/export/signed-url` (docs/exports-and-jobs.md), transport-free.
 *
 * An export is a render for the signed-in owner, addressed by the design's `_id` rather than
 * its render code, that may target the unpublished draft (`draft`). Order, as for renders, so
 * that bad input never costs quota: load the design (owner only), pick the published version
 * or the draft, apply the overrides, resolve the variation (failures here cost nothing); then
 * consume one render; then render and deliver. Any failure after consuming is refunded exactly
 * once (docs/exports-and-jobs.md, "Metering and refunds").
 *
 * @module service/export-design
 */
import type { DesignStore } from '../contracts/design-store.js'
import { describeReceived } from '../design/schema.js'
import type { OverrideInput } from '../design/overrides.js'
import { toLithoIssues, validateDesign } from '../design/validate-design.js'
import type { LithoIssue } from '../errors.js'
import { isPresent, loadOwnDesign, notFound } from './designs.js'
import { EXPORT_DEFAULT_FORMAT, EXPORT_PARAM_NAMES, EXPORT_RESERVED_KEYS, ExportParamsSchema, type ExportParams } from '../contracts/schemas/export-params.js'
import { DEFAULT_EXPIRES_IN_MINUTES, invalidRequest } from './params.js'
import { DEFAULT_QUALITY } from '../render/defaults.js'
import { prepareRender, type PreparedRender } from './prepare-render.js'
import { coerceQueryBoolean, readParams } from './query.js'
import { isPlainObject } from '../_internal/is-plain-object.js'
import { renderPrepared, type RenderDesignResult, type RenderResultBody } from './render-design.js'
import type { RenderAccount, RenderServices } from './services.js'

export { EXPORT_DEFAULT_FORMAT, EXPORT_PARAM_NAMES, EXPORT_RESERVED_KEYS, ExportParamsSchema, type ExportParams } from '../contracts/schemas/export-params.js'

const NUMERIC_PARAMS = ['quality', 'expiresIn']

/** The body as an object, or an `ERR_INVALID_REQUEST` naming `body`. */
function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {}
  if (!isPlainObject(body)) throw invalidRequest([{ path: 'body', message: `expected a JSON object of overrides and parameters, received ${describeReceived(body)}` }])
  return body
}

/**
 * Validates the parameters of an export from its query (strings: numbers and `draft` are
 * coerced) and its JSON body (`draft` must be a JSON boolean there). A parameter in both is
 * taken from the query; a parameter given twice in the query is an error.
 *
 * @throws LithoError `ERR_INVALID_REQUEST` with one issue per bad parameter (named as given), or
 * naming `body` when the body is not a JSON object.
 * @example parseExportParams(new URLSearchParams('quality=90'), { format: 'jpeg', 'title.text': 'Hi' }) // { format: 'jpeg', quality: 90 }
 */
export function parseExportParams(query: URLSearchParams, body?: unknown): ExportParams {
  const fromBody = bodyObject(body)
  const issues: LithoIssue[] = []
  const raw = readParams(query, EXPORT_PARAM_NAMES, NUMERIC_PARAMS, issues)
  coerceQueryBoolean(raw, 'draft')
  // A parameter in both is taken from the query; the body's own, numbers coerced as in a query.
  for (const [name, value] of Object.entries(readParams(fromBody, EXPORT_PARAM_NAMES, NUMERIC_PARAMS, issues))) if (!(name in raw)) raw[name] = value
  const result = ExportParamsSchema.safeParse(raw)
  if (!result.success) issues.push(...toLithoIssues(result.error))
  if (issues.length > 0) throw invalidRequest(issues)
  return result.data!
}

/**
 * The overrides of an export body: the body without {@link EXPORT_RESERVED_KEYS}.
 *
 * @throws LithoError `ERR_INVALID_REQUEST` naming `body` when it is not a JSON object.
 * @example exportOverrides({ format: 'png', 'title.text': 'Hi' }) // { 'title.text': 'Hi' }
 */
export function exportOverrides(body: unknown): Record<string, unknown> {
  const overrides: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(bodyObject(body))) if (!EXPORT_RESERVED_KEYS.includes(key)) overrides[key] = value
  return overrides
}

/** What the exports need: the render ports, with designs looked up by `_id`. */
export interface ExportServices extends Omit<RenderServices, 'designs' | 'bulkConcurrency'> {
  designs: Pick<DesignStore, 'get'>
}

/** How an export is delivered: bytes (`/export`), a public stored file (`/export/driver-upload`) or a signed URL (`/export/signed-url`). */
export type ExportDelivery = 'stream' | 'hosted' | 'signed'

/** An export request: whose, which design (`_id`), how delivered, its parameters and overrides. */
export interface ExportDesignRequest {
  /** The signed-in owner; a design of anyone else is not found. */
  account: RenderAccount
  /** The design's `_id` (not its render code). */
  id: string
  delivery: ExportDelivery
  params: ExportParams
  /** Query overrides, a body without its reserved keys ({@link exportOverrides}), or both (later wins). */
  overrides?: OverrideInput | readonly OverrideInput[]
}

/** The JSON body of `driver-upload` (hosted) and `signed-url` (signed). */
export type ExportResultBody = Omit<RenderResultBody, 'delivery'>

/** Which version of the design was exported. */
export type ExportSource = 'published' | 'draft'

/** The outcome of {@link exportDesign}: bytes, or the JSON body of a stored export. */
export type ExportDesignResult =
  | (Extract<RenderDesignResult, { delivery: 'stream' }> & { source: ExportSource })
  | (Omit<Extract<RenderDesignResult, { delivery: 'hosted' | 'signed' }>, 'body'> & { body: ExportResultBody; source: ExportSource })

/**
 * Exports one of the account's designs, metered: one render consumed before rendering, refunded
 * once if anything fails after that.
 *
 * `params.draft: true` exports the draft when the design has one (else the published version);
 * without it, the published version, and a design never published is not found (its message
 * says to pass `draft=true`).
 *
 * @throws LithoError `ERR_DESIGN_NOT_FOUND` (unknown id, another account's design, nothing to
 * export), `ERR_INVALID_DESIGN`, `ERR_INVALID_OVERRIDE`, `ERR_UNKNOWN_VARIATION` (all free);
 * `ERR_QUOTA_EXCEEDED` (nothing rendered); `ERR_RENDER_FAILED`, `ERR_RENDER_BUSY`,
 * `ERR_IMAGE_FETCH`, `ERR_STORAGE`… (refunded).
 * @example
 * const result = await exportDesign(services, { account: user, id: 'd_7Hq2…', delivery: 'signed', params: { expiresIn: 30 }, overrides: { 'title.text': 'Hi' } })
 */
export async function exportDesign(services: ExportServices, request: ExportDesignRequest): Promise<ExportDesignResult> {
  const { account, params } = request
  const { prepared, source } = await prepareExport(services, request)
  const result = await renderPrepared(services, {
    account,
    prepared,
    format: params.format ?? EXPORT_DEFAULT_FORMAT,
    quality: params.quality ?? DEFAULT_QUALITY,
    delivery: request.delivery,
    expiresInMinutes: params.expiresIn ?? DEFAULT_EXPIRES_IN_MINUTES,
    operation: 'export',
  })
  if (result.delivery === 'stream') return { ...result, source }
  const { delivery: _delivery, ...body } = result.body
  return { ...result, body, source }
}

/**
 * Loads the owner's design (the draft with `draft: true` when there is one, else the published
 * version) and prepares it: overrides applied, variation resolved (internal: shared with export
 * jobs). Nothing is metered.
 *
 * @throws LithoError `ERR_DESIGN_NOT_FOUND`, `ERR_INVALID_OVERRIDE`, `ERR_UNKNOWN_VARIATION`.
 */
export async function prepareExport(
  services: Pick<ExportServices, 'designs'>,
  request: { account: { id: string }; id: string; params: Pick<ExportParams, 'draft' | 'variation'>; overrides?: ExportDesignRequest['overrides'] },
): Promise<{ prepared: PreparedRender; source: ExportSource }> {
  const record = await loadOwnDesign(services, request.account, request.id)
  let source: ExportSource
  let stored: unknown
  if (request.params.draft === true && isPresent(record.draft)) [source, stored] = ['draft', record.draft]
  else if (isPresent(record.design)) [source, stored] = ['published', record.design]
  else if (isPresent(record.draft)) throw notFound(request.id, `design "${record.id}" is not published; pass draft=true to export its draft`)
  else throw notFound(request.id, `design "${record.id}" has neither a published version nor a draft`)
  return { prepared: prepareRender({ id: record.id, ownerId: record.ownerId, document: validateDesign(stored) }, request.overrides, request.params.variation), source }
}
