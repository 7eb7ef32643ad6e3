/**
 * Everything a render can check before it costs quota: the design (by render code, owned by
 * the account, published), the overrides (applied, so invalid values fail here) and the
 * variation. A request that fails here is never metered.
 *
 * @module service/prepare-render
 */
import { randomBytes } from 'node:crypto'
import { attachAssets, type AssetSource } from '../assets/asset-source.js'
import type { DesignStore } from '../contracts/design-store.js'
import { LithoError } from '../errors.js'
import { applyOverrides, dynamicOverrideKeys, type OverrideInput } from '../design/overrides.js'
import { refuseIgnoredOverrides } from '../design/strict-overrides.js'
import type { DesignDocument } from '../design/schema.js'
import { RENDER_CODE } from './bearer-services.js'
import { documentDigest, validateStoredDesign } from './validated-designs.js'
import type { OutputOptions } from '../render/defaults.js'
import type { RenderResult } from '../render/render-document.js'
import type { Renderer } from '../render/renderer.js'
import { resolveDesign, type ResolvedDocument } from '../render/resolve-document.js'
import type { RenderWarning } from '../render/types.js'

/** A design ready to render: the document with overrides applied, and what was ignored. */
export interface PreparedRender {
  designId: string
  /** The account that owns the design: the assets it draws must be this account's. */
  ownerId?: string
  /** The base document with the overrides applied (before the variation). */
  document: DesignDocument
  /** The same, resolved to the variation: what the renderer lays out. */
  resolved: ResolvedDocument
  /** `master` or the variation id. */
  variation: string
  width: number
  height: number
  warnings: RenderWarning[]
}

/** Where a design's render code may come from: any design store. */
export type DesignLookup = Pick<DesignStore, 'getByRenderCode'> & Partial<Pick<DesignStore, 'get'>>

/**
 * Loads the published design behind `renderCode` for `ownerId`, with its version (the record's
 * `updatedAt`, which every update and publish sets, and a digest of the document). A design of another account,
 * or one with only a draft, is "not found": render codes never reveal other accounts' designs.
 *
 * @throws LithoError `ERR_DESIGN_NOT_FOUND`; `ERR_INVALID_DESIGN` if the stored document is broken.
 */
export async function loadPublishedDesign(designs: DesignLookup, ownerId: string, renderCode: string): Promise<{ id: string; ownerId: string; document: DesignDocument; version: string }> {
  const record = RENDER_CODE.test(renderCode) ? await designs.getByRenderCode(renderCode) : null
  if (record === null || record.ownerId !== ownerId || record.design === null || record.design === undefined)
    throw new LithoError('ERR_DESIGN_NOT_FOUND', `no published design has the render code "${renderCode.slice(0, 64)}"${await designIdHint(designs, ownerId, renderCode)}`, {
      details: { designId: renderCode.slice(0, 64) },
    })
  // The design's version in output keys: updatedAt (set by every update and publish) and the
  // digest of the content, since two writes may carry the same updatedAt (one millisecond, or
  // instances whose clocks differ).
  const document = validateStoredDesign(record.id, record.design)
  return { id: record.id, ownerId, document, version: `${record.updatedAt}~${documentDigest(document)}` }
}

/**
 * When `value` is the `_id` of one of the owner's own designs (the usual mistake: the id from
 * `/designs/v2` where the render code belongs), what to use instead; else nothing, so that
 * nobody learns about another account's designs.
 */
async function designIdHint(designs: DesignLookup, ownerId: string, value: string): Promise<string> {
  if (designs.get === undefined || !/^d_[A-Za-z0-9_-]{1,64}$/.test(value)) return ''
  const byId = await designs.get(value).catch(() => null)
  if (byId === null || byId.ownerId !== ownerId) return ''
  if (byId.design === null || byId.design === undefined) return `; "${value}" is the _id of your design, which has no published version yet: publish it, then render it by its render code "${byId.renderCode}"`
  return `; "${value}" is the _id of your design, not its render code: use its render code "${byId.renderCode}" (as in renderConfig.render, {render_url}/v1/${byId.renderCode})`
}

/**
 * Applies overrides and resolves the variation of a loaded design. A `version` (the record's
 * `updatedAt`) travels with the resolved document as its `source`.
 *
 * With `options.strict`, an override key that names no overridable field is refused instead of
 * ignored (design/strict-overrides).
 *
 * @throws LithoError `ERR_INVALID_OVERRIDE`, `ERR_UNKNOWN_VARIATION`, `ERR_INVALID_DESIGN`.
 */
export function prepareRender(design: { id: string; ownerId?: string; document: DesignDocument; version?: string }, overrides: OverrideInput | readonly OverrideInput[] | undefined, variation: string | undefined, options: { strict?: boolean | undefined } = {}): PreparedRender {
  const applied = overrides === undefined ? { document: design.document, applied: [], ignored: [] } : applyOverrides(design.document, overrides)
  if (options.strict === true && applied.ignored.length > 0) refuseIgnoredOverrides(applied.ignored, dynamicOverrideKeys(design.document))
  // The overrides are applied once, above; the variation is resolved on the result.
  const resolved = resolveDesign(applied.document, { variation })
  const warnings: RenderWarning[] = applied.ignored.map((i) => ({ code: 'override_ignored', key: i.key, reason: i.reason, message: i.message, ...(i.suggestion ? { suggestion: i.suggestion } : {}) }))
  return {
    designId: design.id,
    ...(design.ownerId === undefined ? {} : { ownerId: design.ownerId }),
    document: applied.document,
    resolved: { ...resolved, overridden: applied.applied, warnings, ...(design.version === undefined ? {} : { source: { designId: design.id, version: design.version } }) },
    variation: resolved.variation,
    width: resolved.width,
    height: resolved.height,
    warnings,
  }
}

/** The renderer port of the services: `render`, and `renderResolved` when the renderer has it. */
export type RendererPort = Pick<Renderer, 'render' | 'renderResolved'>

/**
 * Renders a prepared design without resolving it again: through `renderResolved` when the
 * renderer offers it (the pool and `createRenderer` do), else through `render` with the
 * overridden document and the variation (a renderer an embedder wrote with `render` only).
 * The prepared warnings are the caller's to add: `resolved.warnings` repeats them. The assets the
 * document draws (`asset:<id>`) are loaded from `assets` for the design's owner first.
 *
 * @throws LithoError `ERR_ASSET_NOT_FOUND` naming the field for an asset that is not the owner's.
 */
export async function renderPreparedDocument(renderer: RendererPort, prepared: PreparedRender, output: OutputOptions, assets?: AssetSource): Promise<RenderResult> {
  if (typeof renderer.renderResolved === 'function') {
    const resolved = prepared.ownerId === undefined ? prepared.resolved : await attachAssets(prepared.resolved, assets, prepared.ownerId)
    return renderer.renderResolved({ ...resolved, warnings: [] }, output)
  }
  return renderer.render(prepared.document, { ...output, variation: prepared.variation })
}

/** A new random id with a prefix, e.g. `r_Qm2L…` (96 bits, base64url). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`
}

/** The file extension of a format. */
export function extensionOf(format: string): string {
  return format === 'jpeg' ? 'jpg' : format
}
