// The editor's document operations, pure: find, change, add, remove and reorder components (at
// any depth: a group's components are its `children`), variation patches, and an undo history of
// whole documents.
import type { DesignDocument } from '../document.js'

export type Component = Record<string, unknown> & { key: string; type: string; x?: number; y?: number; width: number; height: number; children?: Component[] }
export type NewType = 'text' | 'shape' | 'image' | 'qrcode' | 'barcode' | 'group'
export interface Variation {
  id: string
  name?: string
  width: number
  height: number
  components?: Record<string, Record<string, unknown>>
}

/** The fields a component type may list in `dynamic` (docs/design-document.md). */
export const DYNAMIC_FIELDS: Record<string, string[]> = {
  text: ['text', 'color', 'fontSize', 'fontFamily', 'fontWeight', 'visible', 'x', 'y', 'width', 'height', 'opacity'],
  shape: ['fill', 'visible', 'x', 'y', 'width', 'height', 'opacity'],
  image: ['src', 'visible', 'x', 'y', 'width', 'height', 'opacity'],
  qrcode: ['value', 'color', 'visible', 'x', 'y', 'width', 'height'],
  barcode: ['value', 'symbology', 'visible', 'x', 'y', 'width', 'height'],
  group: ['visible', 'x', 'y', 'opacity', 'background'],
}

/** Every component, depth first, with its parent's key and its path in the document (`components[1].children[0]`). */
export function flatten(components: Component[] = [], parent?: string, at = 'components'): Array<{ component: Component; parent?: string; depth: number; path: string }> {
  return components.flatMap((component, i) => {
    const path = `${at}[${i}]`
    return [{ component, ...(parent ? { parent } : {}), depth: parent ? 1 : 0, path }, ...flatten(component.children ?? [], component.key, `${path}.children`).map((c) => ({ ...c, depth: c.depth + 1 }))]
  })
}

export function findComponent(doc: DesignDocument, key: string): Component | undefined {
  return flatten(doc.components as Component[]).find((c) => c.component.key === key)?.component
}

/** The keys of `key`'s groups, innermost first. */
export function ancestors(doc: DesignDocument, key: string): string[] {
  const parents = new Map(flatten(doc.components as Component[]).map((c) => [c.component.key, c.parent]))
  const out: string[] = []
  for (let p = parents.get(key); p; p = parents.get(p)) out.push(p)
  return out
}

function mapComponents(components: Component[], key: string, change: (c: Component) => Component | null): Component[] {
  const out: Component[] = []
  for (const c of components) {
    if (c.key === key) {
      const next = change(c)
      if (next) out.push(next)
    } else out.push(c.children ? { ...c, children: mapComponents(c.children, key, change) } : c)
  }
  return out
}

/** `fields` set on `target` (`undefined` removes a field). */
function assign<T extends Record<string, unknown>>(target: T, fields: Record<string, unknown>): T {
  const next: Record<string, unknown> = { ...target }
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) delete next[name]
    else next[name] = value
  }
  return next as T
}

/** The document with component `key` changed (fields set; `undefined` removes a field). */
export function updateComponent(doc: DesignDocument, key: string, fields: Record<string, unknown>): DesignDocument {
  return { ...doc, components: mapComponents((doc.components ?? []) as Component[], key, (c) => assign(c, fields)) }
}

/** Removes a component (and its children), and the variations' patches of every key removed. */
export function removeComponent(doc: DesignDocument, key: string): DesignDocument {
  const found = findComponent(doc, key)
  const gone = new Set(found ? flatten([found]).map((c) => c.component.key) : [key])
  const variations = (doc.variations as Variation[] | undefined)?.map((v) => {
    if (!v.components) return v
    const components = Object.fromEntries(Object.entries(v.components).filter(([k]) => !gone.has(k)))
    return Object.keys(components).length ? { ...v, components } : { id: v.id, ...(v.name ? { name: v.name } : {}), width: v.width, height: v.height }
  })
  return { ...doc, components: mapComponents((doc.components ?? []) as Component[], key, () => null), ...(variations ? { variations } : {}) }
}

/** Applies `edit` to the list that holds `key` (the top level or a group's children). */
function editList(components: Component[], key: string, edit: (list: Component[]) => Component[]): Component[] {
  if (components.some((c) => c.key === key)) return edit(components)
  return components.map((c) => (c.children ? { ...c, children: editList(c.children, key, edit) } : c))
}

/** Moves a component one step up (towards the front) or down the paint order of its list. */
export function moveComponent(doc: DesignDocument, key: string, step: 1 | -1): DesignDocument {
  return {
    ...doc,
    components: editList((doc.components ?? []) as Component[], key, (components) => {
      const list = [...components]
      const index = list.findIndex((c) => c.key === key)
      const target = index + step
      if (target < 0 || target >= list.length) return components
      ;[list[index], list[target]] = [list[target]!, list[index]!]
      return list
    }),
  }
}

/** Adds `component` on top of the document, or of group `parent`'s children. */
export function addComponent(doc: DesignDocument, component: Component, parent?: string): DesignDocument {
  if (!parent) return { ...doc, components: [...(doc.components ?? []), component] }
  return { ...doc, components: mapComponents((doc.components ?? []) as Component[], parent, (g) => ({ ...g, children: [...(g.children ?? []), component] })) }
}

/** A key not used yet: `text`, `text-2`, `text-3`… */
export function freshKey(doc: DesignDocument, base: string): string {
  const used = new Set(flatten(doc.components as Component[]).map((c) => c.component.key))
  if (!used.has(base)) return base
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`
}

/** A new component of `type`: centred on the canvas, or at the top left of group `parent` (sized to fit it). */
export function newComponent(doc: DesignDocument, type: NewType, parent?: Component): Component {
  const w = parent?.width ?? doc.width ?? 1200
  const h = parent?.height ?? doc.height ?? 630
  const side = Math.round(Math.min(w, h) * (parent ? 0.8 : 0.3))
  const sizes: Record<NewType, [number, number]> = { text: [w * 0.6, Math.max(40, h * 0.15)], shape: [w * 0.25, w * 0.25], image: [w * 0.25, w * 0.1875], qrcode: [side, side], barcode: [w * 0.3, h * 0.2], group: [w * 0.4, h * 0.2] }
  const width = Math.round(Math.min(w, sizes[type][0]))
  const height = Math.round(Math.min(h, sizes[type][1]))
  const key = freshKey(doc, type)
  const base = { key, x: parent ? 0 : Math.round((w - width) / 2), y: parent ? 0 : Math.round((h - height) / 2), width, height }
  if (type === 'text') return { ...base, type, text: 'Your text', fontSize: Math.max(12, Math.round(height * 0.5)), color: '#111827', dynamic: ['text', 'color'] }
  if (type === 'image') return { ...base, type, fit: 'cover', dynamic: ['src'] }
  if (type === 'qrcode') return { ...base, type, value: 'https://example.com', color: '#111827', background: '#ffffff', dynamic: ['value'] }
  if (type === 'barcode') return { ...base, type, value: 'LITHO-0001', symbology: 'code128', color: '#111827', background: '#ffffff', dynamic: ['value'] }
  if (type === 'group') {
    const child: Component = { key: freshKey(doc, `${key}-text`), type: 'text', x: 0, y: 0, width: Math.round(width * 0.8), height: Math.round(height * 0.6), text: 'Group text', fontSize: Math.max(12, Math.round(height * 0.25)), color: '#111827', verticalAlign: 'middle', dynamic: ['text'] }
    return { ...base, type, background: '#e2e8f0', radius: 12, layout: { direction: 'row', gap: 16, align: 'center', justify: 'center', padding: 16 }, children: [child], dynamic: ['visible'] }
  }
  return { ...base, type, shape: 'rectangle', fill: '#2563eb', dynamic: ['fill'] }
}

/** The fields a variation patch may not set. */
export const UNPATCHABLE = new Set(['key', 'type', 'children', 'dynamic'])

/** The document as variation `id` lays it out: its size, and each component with its patch applied. */
export function variationView(doc: DesignDocument, id: string): DesignDocument {
  const v = (doc.variations as Variation[] | undefined)?.find((x) => x.id === id)
  if (!v) return doc
  const patches = v.components ?? {}
  const patch = (list: Component[]): Component[] => list.map((c) => ({ ...c, ...patches[c.key], ...(c.children ? { children: patch(c.children) } : {}) }))
  return { ...doc, width: v.width, height: v.height, components: patch((doc.components ?? []) as Component[]) }
}

/** The document with variation `id` changed (`fields` set on it). */
export function updateVariation(doc: DesignDocument, id: string, fields: Partial<Variation>): DesignDocument {
  return { ...doc, variations: ((doc.variations ?? []) as Variation[]).map((v) => (v.id === id ? assign(v as unknown as Record<string, unknown>, fields) : v)) }
}

/** The document with `fields` set in variation `id`'s patch of component `key` (`undefined` removes a field; an empty patch goes). */
export function patchComponent(doc: DesignDocument, id: string, key: string, fields: Record<string, unknown>): DesignDocument {
  const v = ((doc.variations ?? []) as Variation[]).find((x) => x.id === id)
  if (!v) return doc
  const allowed = Object.fromEntries(Object.entries(fields).filter(([f]) => !UNPATCHABLE.has(f)))
  const patch = assign(v.components?.[key] ?? {}, allowed)
  const components = { ...v.components, [key]: patch }
  if (Object.keys(patch).length === 0) delete components[key]
  return updateVariation(doc, id, { components: Object.keys(components).length ? components : undefined })
}

/** A variation id for `name`, unused and never `master`: `Story` → `story`, then `story-2`. */
export function variationId(doc: DesignDocument, name: string): string {
  let base = name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').slice(0, 56)
  while (base.startsWith('-')) base = base.slice(1)
  while (base.endsWith('-')) base = base.slice(0, -1)
  base ||= 'size'
  const used = new Set(['master', ...((doc.variations ?? []) as Variation[]).map((v) => v.id)])
  if (!used.has(base)) return base
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`
}

/** Undo and redo over whole documents (they are small). */
export interface History {
  past: DesignDocument[]
  present: DesignDocument
  future: DesignDocument[]
}

export function commit(history: History, next: DesignDocument): History {
  if (JSON.stringify(next) === JSON.stringify(history.present)) return history
  return { past: [...history.past.slice(-99), history.present], present: next, future: [] }
}

export function undo(history: History): History {
  const previous = history.past.at(-1)
  return previous ? { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] } : history
}

export function redo(history: History): History {
  const next = history.future[0]
  return next ? { past: [...history.past, history.present], present: next, future: history.future.slice(1) } : history
}
