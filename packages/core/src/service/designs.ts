/**
 * The design endpoints (docs/http-reference.md, bearer): the account's design list, one design record
 * (docs/http-reference.md, Design), and a design's render configuration. Transport-free: the
 * HTTP adapter parses the query with {@link parseListDesignsParams} and maps errors to statuses.
 *
 * A design is only ever visible to its owner: another account's design, an unknown id and an
 * id outside the id alphabet are all `ERR_DESIGN_NOT_FOUND` (a 404), so nothing tells a caller
 * whether a design exists.
 *
 * @module service/designs
 */
import type { DesignRecord, DesignStore } from '../contracts/design-store.js'
import { getDynamicData } from '../design/dynamic-fields.js'
import { toLithoIssues, validateDesign } from '../design/validate-design.js'
import { listVariations } from '../design/variations.js'
import { LithoError } from '../errors.js'
import { invalidRequest } from './params.js'
import { RENDER_CODE, STORE_ID, type BearerAccount, type BearerServices } from './bearer-services.js'
import { DesignResourceSchema, ListDesignsParamsSchema, MAX_PAGE, type DesignListItem, type DesignResource, type PaginatedDesigns, type RenderConfig } from '../contracts/schemas/designs.js'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, parseQuery } from './query.js'

export { DesignListItemSchema, DesignResourceSchema, ListDesignsParamsSchema, MAX_PAGE, PaginatedDesignsSchema, RenderConfigSchema } from '../contracts/schemas/designs.js'
export type { DesignListItem, DesignResource, PaginatedDesigns, RenderConfig } from '../contracts/schemas/designs.js'

/**
 * Validated list parameters with their defaults applied.
 *
 * @example const params: ListDesignsParams = { page: 1, limit: 10 }
 */
export interface ListDesignsParams {
  page: number
  limit: number
}

/**
 * Validates the query of `GET /designs/v2`. Numbers come as strings and are coerced; a value
 * given twice is an error.
 *
 * @throws LithoError `ERR_INVALID_REQUEST` naming `$page` or `$limit`, e.g. `$limit: expected a whole number from 1 to 100, received 101`.
 * @example parseListDesignsParams(new URLSearchParams('$page=2')) // { page: 2, limit: 10 }
 */
export function parseListDesignsParams(query: URLSearchParams): ListDesignsParams {
  const parsed = parseQuery(query, ListDesignsParamsSchema, ['$page', '$limit'])
  return { page: parsed.$page ?? 1, limit: parsed.$limit ?? DEFAULT_PAGE_SIZE }
}

/**
 * A page of the account's designs, most recently updated first (ties by id). With no designs
 * the answer is page 1 of 1, empty (`totalPages` is never 0, so `page ≤ totalPages` holds for
 * the first page); a page past the last is empty with `hasNextPage: false`.
 *
 * @throws LithoError `ERR_INVALID_REQUEST` when `page` or `limit` is out of range (callers
 * normally pass {@link parseListDesignsParams}'s result); store errors as they are.
 * @example const { docs, hasNextPage } = await listDesigns(services, { account: { id: 'u_1' }, page: 1, limit: 10 })
 */
export async function listDesigns(services: Pick<BearerServices, 'designs'>, request: { account: BearerAccount; page: number; limit: number }): Promise<PaginatedDesigns> {
  const { account, page, limit } = request
  const checked = ListDesignsParamsSchema.safeParse({ $page: page, $limit: limit })
  if (!checked.success) throw invalidRequest(toLithoIssues(checked.error))
  const { items, total } = await services.designs.listByOwner(account.id, { offset: (page - 1) * limit, limit })
  const totalPages = Math.max(1, Math.ceil(total / limit))
  return {
    docs: items.map((item) => ({ _id: item.id, name: item.name, updatedAt: item.updatedAt })),
    page,
    totalPages,
    hasNextPage: page < totalPages,
    totalDocs: total,
    limit,
  }
}

/**
 * The design record of `GET /designs/v2/{id}`: `design` is the published document or null,
 * `draft` is there only when the design has one. Documents are returned as stored.
 *
 * @throws LithoError `ERR_DESIGN_NOT_FOUND` for an unknown id, an id outside `[A-Za-z0-9_-]{1,64}`,
 * or a design of another account.
 * @example const record = await getDesign(services, { account: { id: 'u_1' }, id: 'd_7Hq2' })
 */
export async function getDesign(services: Pick<BearerServices, 'designs'>, request: { account: BearerAccount; id: string }): Promise<DesignResource> {
  return toDesignResource(await loadOwnDesign(services, request.account, request.id))
}

/** A stored record as `getDesign` returns it (internal: shared with the authoring operations). */
export function toDesignResource(record: DesignRecord): DesignResource {
  return {
    _id: record.id,
    name: record.name,
    renderCode: record.renderCode,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    design: isPresent(record.design) ? (record.design as Record<string, unknown>) : null,
    ...(isPresent(record.draft) ? { draft: record.draft as Record<string, unknown> } : {}),
  }
}

/**
 * The render configuration of `GET /designs/v2/{id}/config`: the render URL, the overridable
 * fields (`data.pure`, `data.flatten`) and the sizes (`master` first, then each variation).
 *
 * It describes the **published** document. A design with only a draft is described from its
 * draft, so its owner can prepare overrides before publishing; its `render` URL answers 404
 * until the design is published (renders use the published version only).
 *
 * @param request.renderUrl The render service address (`{render_url}`); trailing slashes are dropped.
 * @throws LithoError `ERR_DESIGN_NOT_FOUND` as {@link getDesign}, and for a design with neither a
 * published version nor a draft; `ERR_INVALID_DESIGN` when the stored document is broken.
 * @example
 * const config = await getRenderConfig(services, { account: { id: 'u_1' }, id: 'd_7Hq2', renderUrl: 'https://render.example.com' })
 * config.render // 'https://render.example.com/v1/k3Jx9…'
 */
export async function getRenderConfig(services: Pick<BearerServices, 'designs'>, request: { account: BearerAccount; id: string; renderUrl: string }): Promise<RenderConfig> {
  const record = await loadOwnDesign(services, request.account, request.id)
  const source = isPresent(record.design) ? record.design : record.draft
  if (!isPresent(source)) throw notFound(request.id, `design "${record.id}" has neither a published version nor a draft`)
  const document = validateDesign(source)
  return {
    // Trailing slashes; (?<!\/) starts a match only at the first of them, so it stays linear.
    render: `${request.renderUrl.replace(/(?<!\/)\/+$/, '')}/v1/${encodeURIComponent(record.renderCode)}`,
    data: getDynamicData(document),
    variations: listVariations(document),
  }
}

/**
 * The design `id` when `account` owns it; otherwise "not found", whatever the reason (internal).
 * When `id` is the render code of one of the account's own designs (the usual mistake: the code
 * from a render URL where the `_id` belongs), the error names the `_id` to use.
 */
export async function loadOwnDesign(services: { designs: Pick<DesignStore, 'get'> & Partial<Pick<DesignStore, 'getByRenderCode'>> }, account: BearerAccount, id: string): Promise<DesignRecord> {
  const record = typeof id === 'string' && STORE_ID.test(id) ? await services.designs.get(id) : null
  if (record === null || record.ownerId !== account.id) throw notFound(id, undefined, await renderCodeHint(services.designs, account.id, id))
  return record
}

/** When `value` is the render code of the owner's own design, its `_id` (never another account's). */
async function renderCodeHint(designs: Partial<Pick<DesignStore, 'getByRenderCode'>>, ownerId: string, value: unknown): Promise<DesignRecord | undefined> {
  if (designs.getByRenderCode === undefined || typeof value !== 'string' || !RENDER_CODE.test(value)) return undefined
  const byCode = await designs.getByRenderCode(value).catch(() => null)
  return byCode !== null && byCode.ownerId === ownerId ? byCode : undefined
}

/**
 * The "no such design" error, never telling whether it exists for someone else (internal).
 * `byRenderCode`: the caller's own design whose render code `id` is (see {@link loadOwnDesign}).
 */
export function notFound(id: string, message?: string, byRenderCode?: DesignRecord): LithoError {
  const shown = JSON.stringify(String(id).slice(0, 64))
  if (byRenderCode !== undefined) {
    return new LithoError('ERR_DESIGN_NOT_FOUND', `no design has the id ${shown}: that is the render code of your design ${JSON.stringify(byRenderCode.name)}, whose _id is "${byRenderCode.id}" (render codes go in render URLs, _ids in /designs/v2/{id} and the design tools)`, {
      details: { id: String(id).slice(0, 64), designId: byRenderCode.id },
    })
  }
  return new LithoError('ERR_DESIGN_NOT_FOUND', message ?? `no design has the id ${shown}`, { details: { id: String(id).slice(0, 64) } })
}

/** Neither null nor undefined (internal). */
export const isPresent = (value: unknown): boolean => value !== null && value !== undefined
