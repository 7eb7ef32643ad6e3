/**
 * Everything a render can check before it costs quota: the design (by render code, owned by
 * the account, published), the overrides (applied, so invalid values fail here) and the
 * variation. A request that fails here is never metered.
 *
 * @module service/prepare-render
 */
import { randomBytes } from 'node:crypto'
import type { DesignStore } from '../contracts/design-store.js'
import { LithoError } from '../errors.js'
import { applyOverrides, type OverrideInput } from '../design/overrides.js'
import type { DesignDocument } from '../design/schema.js'
import { validateDesign } from '../design/validate-design.js'
import { resolveVariation } from '../design/variations.js'
import type { RenderWarning } from '../render/types.js'

/** A design ready to render: the document with overrides applied, and what was ignored. */
export interface PreparedRender {
  designId: string
  document: DesignDocument
  /** `master` or the variation id. */
  variation: string
  width: number
  height: number
  warnings: RenderWarning[]
}

/** Where a design's render code may come from: any design store. */
export type DesignLookup = Pick<DesignStore, 'getByRenderCode'>

/**
 * Loads the published design behind `renderCode` for `ownerId`. A design of another account,
 * or one with only a draft, is "not found": render codes never reveal other accounts' designs.
 *
 * @throws LithoError `ERR_DESIGN_NOT_FOUND`; `ERR_INVALID_DESIGN` if the stored document is broken.
 */
export async function loadPublishedDesign(designs: DesignLookup, ownerId: string, renderCode: string): Promise<{ id: string; document: DesignDocument }> {
  const record = /^[A-Za-z0-9_-]{16,64}$/.test(renderCode) ? await designs.getByRenderCode(renderCode) : null
  if (record === null || record.ownerId !== ownerId || record.design === null || record.design === undefined)
    throw new LithoError('ERR_DESIGN_NOT_FOUND', `no published design has the render code "${renderCode.slice(0, 64)}"`, { details: { designId: renderCode.slice(0, 64) } })
  return { id: record.id, document: validateDesign(record.design) }
}

/**
 * Applies overrides and resolves the variation of a loaded design.
 *
 * @throws LithoError `ERR_INVALID_OVERRIDE`, `ERR_UNKNOWN_VARIATION`, `ERR_INVALID_DESIGN`.
 */
export function prepareRender(design: { id: string; document: DesignDocument }, overrides: OverrideInput | readonly OverrideInput[] | undefined, variation: string | undefined): PreparedRender {
  const applied = overrides === undefined ? { document: design.document, ignored: [] } : applyOverrides(design.document, overrides)
  const resolved = resolveVariation(applied.document, variation)
  return {
    designId: design.id,
    document: applied.document,
    variation: resolved.variation,
    width: resolved.width,
    height: resolved.height,
    warnings: applied.ignored.map((i) => ({ code: 'override_ignored', key: i.key, reason: i.reason, message: i.message })),
  }
}

/** A new random id with a prefix, e.g. `r_Qm2L…` (96 bits, base64url). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`
}

/** The file extension of a format. */
export function extensionOf(format: string): string {
  return format === 'jpeg' ? 'jpg' : format
}
