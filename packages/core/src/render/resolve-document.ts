/**
 * The resolve stage of a render: validate the document, apply the overrides, resolve the
 * variation. It runs once per render, on the thread that takes the request; what it returns, a
 * {@link ResolvedDocument}, is all the later stages (layout, rasterize, encode) need, so the
 * render pool's workers never validate again.
 *
 * @module render/resolve-document
 */
import { applyOverrides, type OverrideInput, type ParsedOverrides } from '../design/overrides.js'
import type { DesignDocument } from '../design/schema.js'
import { validateDesign } from '../design/validate-design.js'
import { resolveVariation, type ResolvedVariation } from '../design/variations.js'
import type { RenderWarning } from './types.js'

/**
 * A design ready to lay out at one size: validated, overrides applied, variation resolved.
 * Plain data (it crosses to a worker thread by structured clone), e.g.
 * `{ document, width: 1080, height: 1920, variation: 'story', scale: 1, offsetX: 0, offsetY: 0, overridden: ['title.text'], warnings: [] }`.
 */
export interface ResolvedDocument extends ResolvedVariation {
  /** The override keys that were applied (`AppliedOverrides.applied`): a bad QR value they set is the override's fault. */
  overridden: string[]
  /** Overrides that were ignored, as warnings. */
  warnings: RenderWarning[]
  /**
   * The stored design this document was rendered from, and its version (the record's
   * `updatedAt`), when a service rendered one: a render thread that sees a newer version drops
   * the static layers the older one left (docs/performance.md, "Static-layer cache").
   */
  source?: { designId: string; version: string }
  /**
   * The bytes of the assets the document draws (`asset:<id>` sources), by id, attached by the
   * services from the asset store (assets/asset-source). Without it an `asset:` source fails.
   */
  assets?: Map<string, AssetBytes>
}

/** An asset's bytes as a render receives them. */
export interface AssetBytes {
  bytes: Uint8Array
  contentType: string
}

/** What {@link resolveDesign} applies, e.g. `{ overrides: 'title.text=Hi', variation: 'story' }`. */
export interface ResolveOptions {
  /** Overrides: a query string, URLSearchParams, a nested or dot-path object, or a list of these. */
  overrides?: OverrideInput | readonly OverrideInput[] | ParsedOverrides | undefined
  /** A variation id; omitted or `master` is the base size. */
  variation?: string | undefined
}

/**
 * Resolves an already validated document (the output of `validateDesign`, or of a store that
 * validated it): applies the overrides, then resolves the variation. No validation of the base.
 *
 * @throws LithoError `ERR_INVALID_OVERRIDE`, `ERR_UNKNOWN_VARIATION`, `ERR_INVALID_DESIGN` (a variation patch).
 * @example resolveDesign(validateDesign(json), { overrides: { 'title.text': 'Hi' }, variation: 'story' }).width // 1080
 */
export function resolveDesign(document: DesignDocument, options: ResolveOptions = {}): ResolvedDocument {
  const applied = options.overrides === undefined ? { document, applied: [], ignored: [] } : applyOverrides(document, options.overrides)
  const resolved = resolveVariation(applied.document, options.variation)
  return {
    ...resolved,
    overridden: applied.applied,
    warnings: applied.ignored.map((i) => ({ code: 'override_ignored', key: i.key, reason: i.reason, message: i.message })),
  }
}

/**
 * Validates raw JSON, then resolves it as {@link resolveDesign} does: the whole resolve stage.
 *
 * @throws LithoError `ERR_INVALID_DESIGN`, `ERR_INVALID_OVERRIDE`, `ERR_UNKNOWN_VARIATION`.
 * @example resolveDocument(JSON.parse(text), { overrides: 'title.text=Hi' }).variation // 'master'
 */
export function resolveDocument(document: unknown, options: ResolveOptions = {}): ResolvedDocument {
  return resolveDesign(validateDesign(document), options)
}
