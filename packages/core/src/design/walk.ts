/**
 * Traversal of the component tree (groups nest components).
 *
 * @module design/walk
 */
import type { Component } from './schema.js'

/** Where a component sits: its JSON path, e.g. `components[3].children[0]`. */
export interface ComponentLocation {
  path: string
  parent: Component | undefined
}

/** Calls `visit` for every component, depth-first, parents before children, in paint order. */
export function walkComponents(
  components: readonly Component[],
  visit: (component: Component, location: ComponentLocation) => void,
  basePath = 'components',
  parent?: Component,
): void {
  components.forEach((component, index) => {
    const path = `${basePath}[${index}]`
    visit(component, { path, parent })
    if (component.type === 'group') walkComponents(component.children, visit, `${path}.children`, component)
  })
}

/** Every component by key (keys are unique document-wide). */
export function indexComponents(components: readonly Component[]): Map<string, Component> {
  const byKey = new Map<string, Component>()
  walkComponents(components, (component) => {
    if (!byKey.has(component.key)) byKey.set(component.key, component)
  })
  return byKey
}

/** Returns a copy of the tree with `replace` applied to every component (children first). */
export function mapComponents(components: readonly Component[], replace: (component: Component) => Component): Component[] {
  return components.map((component) => {
    const next = component.type === 'group' ? { ...component, children: mapComponents(component.children, replace) } : component
    return replace(next)
  })
}
