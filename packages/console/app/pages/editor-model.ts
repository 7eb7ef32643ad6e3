// The editor's document operations, pure: find, change, add, remove and reorder components, and
// an undo history of whole documents.
import type { DesignDocument } from '../api.js'

export type Component = Record<string, unknown> & { key: string; type: string; x?: number; y?: number; width: number; height: number; components?: Component[] }

/** The fields a component type may list in `dynamic` (docs/design-document.md). */
export const DYNAMIC_FIELDS: Record<string, string[]> = {
  text: ['text', 'color', 'fontSize', 'fontFamily', 'fontWeight', 'visible', 'x', 'y', 'width', 'height', 'opacity'],
  shape: ['fill', 'visible', 'x', 'y', 'width', 'height', 'opacity'],
  image: ['src', 'visible', 'x', 'y', 'width', 'height', 'opacity'],
  qrcode: ['value', 'visible'],
  barcode: ['value', 'visible'],
  group: ['visible', 'x', 'y', 'opacity'],
}

/** Every component, depth first, with its parent's key. */
export function flatten(components: Component[] = [], parent?: string): Array<{ component: Component; parent?: string; depth: number }> {
  return components.flatMap((component) => [{ component, ...(parent ? { parent } : {}), depth: parent ? 1 : 0 }, ...flatten(component.components ?? [], component.key).map((c) => ({ ...c, depth: c.depth + 1 }))])
}

export function findComponent(doc: DesignDocument, key: string): Component | undefined {
  return flatten(doc.components as Component[]).find((c) => c.component.key === key)?.component
}

function mapComponents(components: Component[], key: string, change: (c: Component) => Component | null): Component[] {
  const out: Component[] = []
  for (const c of components) {
    if (c.key === key) {
      const next = change(c)
      if (next) out.push(next)
    } else out.push(c.components ? { ...c, components: mapComponents(c.components, key, change) } : c)
  }
  return out
}

/** The document with component `key` changed (fields set; `undefined` removes a field). */
export function updateComponent(doc: DesignDocument, key: string, fields: Record<string, unknown>): DesignDocument {
  return {
    ...doc,
    components: mapComponents((doc.components ?? []) as Component[], key, (c) => {
      const next: Component = { ...c }
      for (const [name, value] of Object.entries(fields)) {
        if (value === undefined) delete next[name]
        else next[name] = value
      }
      return next
    }),
  }
}

export function removeComponent(doc: DesignDocument, key: string): DesignDocument {
  return { ...doc, components: mapComponents((doc.components ?? []) as Component[], key, () => null) }
}

/** Moves a top-level component one step up (towards the front) or down the paint order. */
export function moveComponent(doc: DesignDocument, key: string, step: 1 | -1): DesignDocument {
  const list = [...((doc.components ?? []) as Component[])]
  const index = list.findIndex((c) => c.key === key)
  const target = index + step
  if (index < 0 || target < 0 || target >= list.length) return doc
  ;[list[index], list[target]] = [list[target]!, list[index]!]
  return { ...doc, components: list }
}

/** A key not used yet: `text`, `text-2`, `text-3`… */
export function freshKey(doc: DesignDocument, base: string): string {
  const used = new Set(flatten(doc.components as Component[]).map((c) => c.component.key))
  if (!used.has(base)) return base
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`
}

/** A new component of `type`, centred on the canvas. */
export function newComponent(doc: DesignDocument, type: 'text' | 'shape' | 'image'): Component {
  const w = doc.width ?? 1200
  const h = doc.height ?? 630
  const width = Math.round(w * (type === 'text' ? 0.6 : 0.25))
  const height = Math.round(type === 'text' ? Math.max(40, h * 0.15) : w * 0.25 * (type === 'image' ? 0.75 : 1))
  const base = { key: freshKey(doc, type === 'shape' ? 'shape' : type), x: Math.round((w - width) / 2), y: Math.round((h - height) / 2), width, height }
  if (type === 'text') return { ...base, type, text: 'Your text', fontSize: Math.max(12, Math.round(height * 0.5)), color: '#111827', dynamic: ['text', 'color'] }
  if (type === 'image') return { ...base, type, fit: 'cover', dynamic: ['src'] }
  return { ...base, type, shape: 'rectangle', fill: '#2563eb', dynamic: ['fill'] }
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
