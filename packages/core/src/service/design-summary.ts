/**
 * Short answers to design writes: what an agent needs after `create_design` or `update_design`
 * (the ids, the state, what changed and the component keys with their dynamic fields) instead
 * of the whole document it has just sent. Transport-free; the MCP tools reply with it.
 *
 * @module service/design-summary
 */
import { isPlainObject } from '../_internal/is-plain-object.js'
import { DEFAULT_DYNAMIC, type ComponentType } from '../design/schema.js'
import type { DesignResource } from './designs.js'

type Json = Record<string, unknown>

/** One component of the written document, e.g. `{ key: 'title', type: 'text', dynamic: ['text', 'color', 'visible'] }`. */
export interface ComponentSummary {
  key: string
  type: string
  /** The fields a render may override (its `dynamic`, or the type's default list when omitted). */
  dynamic: string[]
  /** The key of the group it is in (absent at the top level). */
  parent?: string
}

/** What an update changed, e.g. `{ components: { added: ['badge'], removed: [], changed: [{ key: 'title', fields: ['text'] }] }, fields: ['width'] }`. */
export interface DesignChanges {
  /** The new name, when the name changed. */
  name?: string
  components: { added: string[]; removed: string[]; changed: Array<{ key: string; fields: string[] }> }
  /** Top-level fields of the document that changed (`width`, `background`, `variations`…; `components` when components both versions have changed their top-level order). */
  fields: string[]
}

/**
 * The answer to a design write.
 *
 * @example
 * { _id: 'd_3Jx9Qm2LpZ7a', name: 'Card', renderCode: 'k3Jx9…', state: 'draft', published: false, changes: 'created', components: [{ key: 'title', type: 'text', dynamic: ['text', 'color', 'visible'] }] }
 */
export interface DesignWriteSummary {
  _id: string
  name: string
  renderCode: string
  /** `draft` when there are unpublished changes (what `render_preview` shows by default), else `published`. */
  state: 'draft' | 'published'
  /** Whether a published version exists (what the render URL renders). */
  published: boolean
  /** `"created"` for a new design; what changed for an update. */
  changes: 'created' | DesignChanges
  /** The components of the written document (the draft, or the published version when there is no draft), depth-first. */
  components: ComponentSummary[]
}

/** Components by key, depth-first, with their parent's key. */
function componentsOf(document: unknown): Map<string, { component: Json; parent?: string }> {
  const found = new Map<string, { component: Json; parent?: string }>()
  const visit = (list: unknown, parent: string | undefined, depth: number): void => {
    if (!Array.isArray(list) || depth > 64) return
    for (const item of list) {
      if (!isPlainObject(item) || typeof item.key !== 'string') continue
      found.set(item.key, { component: item, ...(parent === undefined ? {} : { parent }) })
      if (item.type === 'group') visit(item.children, item.key, depth + 1)
    }
  }
  visit(isPlainObject(document) ? document.components : undefined, undefined, 0)
  return found
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)
const childKeys = (component: Json): string[] => (Array.isArray(component.children) ? component.children.map((child) => (isPlainObject(child) ? String(child.key) : '')) : [])

/** The fields of a component that differ; a group's `children` only when its list of child keys changed (children report their own changes). */
function changedFields(before: Json, after: Json): string[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])]
  return names.filter((name) => (name === 'children' ? !same(childKeys(before), childKeys(after)) : !same(before[name], after[name])))
}

/**
 * What changed between two documents: components added, removed and changed (with the field
 * names), and the top-level fields that changed.
 *
 * @example diffDocuments(before, after).components.changed // [{ key: 'title', fields: ['text', 'y'] }]
 */
export function diffDocuments(before: unknown, after: unknown): Omit<DesignChanges, 'name'> {
  const old = componentsOf(before)
  const now = componentsOf(after)
  const changed: Array<{ key: string; fields: string[] }> = []
  for (const [key, { component }] of now) {
    const previous = old.get(key)?.component
    if (!previous) continue
    const fields = changedFields(previous, component)
    if (fields.length > 0) changed.push({ key, fields })
  }
  const b = isPlainObject(before) ? before : {}
  const a = isPlainObject(after) ? after : {}
  // The top-level order of the components both documents have (additions and removals are listed apart).
  const topKeys = (doc: Json, other: Map<string, unknown>) => (Array.isArray(doc.components) ? doc.components.map((c) => (isPlainObject(c) ? c.key : null)).filter((key) => other.has(String(key))) : [])
  const reordered = !same(topKeys(b, now), topKeys(a, old))
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((name) => (name === 'components' ? reordered : !same(b[name], a[name])))
  return {
    components: { added: [...now.keys()].filter((key) => !old.has(key)), removed: [...old.keys()].filter((key) => !now.has(key)), changed },
    fields,
  }
}

/** The document a write left to work on: the draft, else the published version. */
const workingDocument = (resource: DesignResource): unknown => resource.draft ?? resource.design

/**
 * The short answer to a design write. `previous` is the design before an update (absent for a
 * creation, whose `changes` is `"created"`).
 *
 * @example summarizeDesignWrite(await createDesign(services, request)).changes // 'created'
 */
export function summarizeDesignWrite(resource: DesignResource, previous?: DesignResource): DesignWriteSummary {
  const document = workingDocument(resource)
  let changes: DesignWriteSummary['changes'] = 'created'
  if (previous) {
    const diff = diffDocuments(workingDocument(previous), document)
    changes = { ...(resource.name === previous.name ? {} : { name: resource.name }), ...diff }
  }
  const components = [...componentsOf(document)].map(([key, { component, parent }]) => {
    const type = String(component.type)
    const dynamic = Array.isArray(component.dynamic) ? component.dynamic.map(String) : [...(DEFAULT_DYNAMIC[type as ComponentType] ?? [])]
    return { key, type, dynamic, ...(parent === undefined ? {} : { parent }) }
  })
  return {
    _id: resource._id,
    name: resource.name,
    renderCode: resource.renderCode,
    state: resource.draft === undefined ? 'published' : 'draft',
    published: resource.design !== null,
    changes,
    components,
  }
}
