/**
 * Splits a resolved document into z-ordered layers for the static-layer cache
 * (docs/performance.md): the visible top-level components that no override of this render
 * touches, below and above the ones it does. A top-level component is dynamic when an override
 * touched it or anything inside it (a group whose child changed, an auto-layout group whose
 * geometry follows its text, as when a text of height "auto" moves the siblings after it): it
 * is then drawn wholly per render, the components that move included.
 *
 * @module render/layers/plan-layers
 */
import type { Component } from '../../design/schema.js'
import type { ResolvedDocument } from '../resolve-document.js'

/** A document cut into three runs of top-level components, bottom to top. */
export interface LayerPlan {
  /** Static components drawn under everything dynamic, on the document's background. */
  below: Component[]
  /** From the first to the last dynamic component, static ones between them included. */
  dynamic: Component[]
  /** Static components drawn over everything dynamic. */
  above: Component[]
}

/** The component keys that an applied override key (`title.text`) names. */
function overriddenKeys(resolved: ResolvedDocument): Set<string> {
  return new Set(resolved.overridden.map((key) => key.split('.')[0]!))
}

function touches(component: Component, keys: ReadonlySet<string>): boolean {
  if (keys.has(component.key)) return true
  return component.type === 'group' && component.children.some((child) => touches(child, keys))
}

/**
 * The layers of `resolved`, or `undefined` when there is nothing static to reuse (no background
 * and every visible component dynamic). Static components between two dynamic ones join the
 * dynamic run, so that a render draws at most one dynamic run whatever the z-order.
 *
 * @example planLayers(resolveDocument(card, { overrides: { 'title.text': 'Hi' } }))?.dynamic.map((c) => c.key) // ['title']
 */
export function planLayers(resolved: ResolvedDocument): LayerPlan | undefined {
  const keys = overriddenKeys(resolved)
  // Hidden components paint nothing; an override that hid one simply leaves it out.
  const visible = resolved.document.components.filter((c) => c.visible)
  let first = -1
  let last = -1
  visible.forEach((component, i) => {
    if (!touches(component, keys)) return
    if (first < 0) first = i
    last = i
  })
  const plan: LayerPlan =
    first < 0
      ? { below: visible, dynamic: [], above: [] }
      : { below: visible.slice(0, first), dynamic: visible.slice(first, last + 1), above: visible.slice(last + 1) }
  if (plan.below.length === 0 && plan.above.length === 0 && resolved.document.background === undefined) return undefined
  return plan
}
