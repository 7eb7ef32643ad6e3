/**
 * Variations: extra output sizes of one design (docs/overrides-and-variations.md, "Variations").
 * A variation with patches is laid out at its own size with the patched fields; one
 * without patches reuses the base layout, scaled uniformly to fit and centred.
 *
 * Overrides are applied to the base document first (see `applyOverrides`), then the
 * variation is resolved, so `title.text=Hi` reaches every size and a patch's `y` still wins.
 *
 * @module design/variations
 */
import { LithoError, formatIssues, type LithoIssue } from '../errors.js'
import { COMPONENT_SCHEMAS, type Component, type DesignDocument } from './schema.js'
import { toLithoIssues } from './validate-design.js'
import { indexComponents, mapComponents } from './walk.js'
import { MASTER_VARIATION as MASTER } from '../render/defaults.js'

/** A document ready to lay out at one size, e.g. `{ variation: 'story', width: 1080, height: 1920, scale: 1, … }`. */
export interface ResolvedVariation {
  /** The document to lay out: the base document, or with the variation's patches applied and its size. */
  document: DesignDocument
  /** Output width in pixels. */
  width: number
  /** Output height in pixels. */
  height: number
  /** 'master' or the variation id. */
  variation: string
  /** Uniform scale from the document's layout to the output (1 unless the variation has no patches). */
  scale: number
  /** Offset in output pixels of the scaled layout (centring). */
  offsetX: number
  /** Offset in output pixels of the scaled layout (centring). */
  offsetY: number
}

/** One entry of the render config's `variations`, e.g. `{ id: 'story', name: 'Story', dimensions: { width: 1080, height: 1920 } }`. */
export interface VariationSummary {
  id: string
  name: string
  dimensions: { width: number; height: number }
}

/**
 * Every size of the document: `master` (named "Master") first, then each variation
 * (named by its `name`, or its id when it has none).
 *
 * @example listVariations(doc).map((v) => v.id) // ['master', 'story']
 */
export function listVariations(document: DesignDocument): VariationSummary[] {
  return [
    { id: MASTER, name: 'Master', dimensions: { width: document.width, height: document.height } },
    ...document.variations.map((v) => ({ id: v.id, name: v.name ?? v.id, dimensions: { width: v.width, height: v.height } })),
  ]
}

/**
 * Resolves the size to render. `undefined`, `''` and `'master'` mean the base size.
 *
 * @throws LithoError `ERR_UNKNOWN_VARIATION` for an unknown id (details: `{ variation, available }`);
 *   `ERR_INVALID_DESIGN` when a patch makes a component invalid (path `variations[i].components.<key>.<field>`).
 * @example resolveVariation(applyOverrides(doc, query).document, 'story')
 */
export function resolveVariation(document: DesignDocument, id?: string): ResolvedVariation {
  const base = { document, width: document.width, height: document.height, variation: MASTER, scale: 1, offsetX: 0, offsetY: 0 }
  if (id === undefined || id === '' || id === MASTER) return base
  const index = document.variations.findIndex((v) => v.id === id)
  const variation = document.variations[index]
  if (!variation) {
    const available = listVariations(document).map((v) => v.id)
    throw new LithoError('ERR_UNKNOWN_VARIATION', `unknown variation "${id}"; available: ${available.join(', ')}`, { details: { variation: id, available } })
  }
  const { width, height } = variation
  const patches = Object.entries(variation.components ?? {})
  if (patches.length === 0) {
    // No patches: the base layout is drawn as is, scaled to fit the variation and centred.
    const scale = Math.min(width / document.width, height / document.height)
    return { ...base, width, height, variation: id, scale, offsetX: (width - document.width * scale) / 2, offsetY: (height - document.height * scale) / 2 }
  }
  const patched = applyPatches(document, patches, `variations[${index}].components`)
  return { ...base, document: { ...document, width, height, components: patched }, width, height, variation: id }
}

/** Merges each patch over its component (shallow) and re-validates it; reports every problem at once. */
function applyPatches(document: DesignDocument, patches: Array<[string, Record<string, unknown>]>, basePath: string): Component[] {
  const byKey = indexComponents(document.components)
  const issues: LithoIssue[] = []
  const replaced = new Map<string, Component>()
  for (const [key, patch] of patches) {
    const path = `${basePath}.${key}`
    const component = byKey.get(key)
    // validateDesign rejects these already; checked again for documents built by hand.
    if (!component) {
      issues.push({ path, message: `expected the key of a component, received "${key}"` })
      continue
    }
    const locked = ['key', 'type', 'children', 'dynamic'].filter((field) => field in patch)
    if (locked.length > 0) {
      issues.push(...locked.map((field) => ({ path: `${path}.${field}`, message: `a variation cannot change "${field}"` })))
      continue
    }
    // Children keep their own (already valid) values; a patch only touches the group's own fields.
    const fields = component.type === 'group' ? { ...component, children: [], ...patch } : { ...component, ...patch }
    const result = COMPONENT_SCHEMAS[component.type].safeParse(fields, { reportInput: true })
    if (result.success) replaced.set(key, result.data as Component)
    else issues.push(...toLithoIssues(result.error, path))
  }
  if (issues.length > 0) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`
    throw new LithoError('ERR_INVALID_DESIGN', `Invalid design document (${count}):\n${formatIssues(issues)}`, { issues })
  }
  return mapComponents(document.components, (component) => {
    const next = replaced.get(component.key)
    if (!next) return component
    return component.type === 'group' && next.type === 'group' ? { ...next, children: component.children } : next
  })
}
