/**
 * The dynamic (overridable) fields of a document, as the render config shows them in
 * `data.pure` and `data.flatten` (docs/overrides-and-variations.md, "Dynamic fields").
 *
 * @module design/dynamic-fields
 */
import { DEFAULT_DYNAMIC, type Component, type DesignDocument } from './schema.js'
import { walkComponents } from './walk.js'

/**
 * The dynamic fields of a component: its `dynamic` list, or its type's default list.
 * An explicit empty list means "nothing is overridable", so only `undefined` falls back.
 *
 * @example getDynamicList(textComponent) // ['text', 'color', 'visible']
 */
export function getDynamicList(component: Component): readonly string[] {
  return component.dynamic ?? DEFAULT_DYNAMIC[component.type]
}

/** `data.pure` (nested by component key) and `data.flatten` (dot-path keys) of the render config. */
export interface DynamicData {
  pure: Record<string, Record<string, unknown>>
  flatten: Record<string, unknown>
}

/**
 * Every overridable field of the document with its current value (`null` when absent, so a
 * client sees the field exists). Components inside groups are addressed by their own key;
 * fields follow the component's dynamic list and components follow paint order. Values are
 * copies: editing the result never changes the document. Components whose dynamic list is
 * empty are left out (they name nothing a render could change).
 *
 * @example getDynamicData(doc).flatten // { 'title.text': 'Hello', 'title.color': '#000000', 'title.visible': true }
 */
export function getDynamicData(document: DesignDocument): DynamicData {
  const pure: Record<string, Record<string, unknown>> = {}
  const flatten: Record<string, unknown> = {}
  walkComponents(document.components, (component) => {
    const fields = getDynamicList(component)
    if (fields.length === 0) return
    const values: Record<string, unknown> = {}
    const record = component as unknown as Record<string, unknown>
    for (const field of fields) {
      const value = record[field] === undefined ? null : structuredClone(record[field])
      values[field] = value
      flatten[`${component.key}.${field}`] = structuredClone(value) // independent of `pure`
    }
    pure[component.key] = values
  })
  return { pure, flatten }
}
