/**
 * The patch engine: applies a {@link DesignPatch} to a raw design document (merge by key,
 * remove, add, move), reporting every unknown key at once with a suggestion. Pure: the input
 * is never changed and the result is not validated.
 *
 * @module design/patch
 */
import { invalidRequest } from '../_internal/messages.js'
import { isPlainObject } from '../_internal/is-plain-object.js'
import { LithoError, formatIssues, type LithoIssue } from '../errors.js'
import { DesignPatchSchema, type DesignPatch } from './patch-schema.js'
import { toLithoIssues } from './validate-design.js'

export { DesignPatchSchema, type DesignPatch }

type Json = Record<string, unknown>

/** Where a component sits in a raw document: its object and the list that holds it. */
interface Slot {
  component: Json
  list: unknown[]
}

/** Top-level document fields a patch replaces. */
const DOCUMENT_FIELDS = ['width', 'height', 'background', 'fonts', 'variations'] as const
const PATCH_FIELDS = [...DOCUMENT_FIELDS, 'components', 'add', 'remove', 'move'] as const
/** Deepest nesting of a merged value (components nest objects a few levels at most). */
const MAX_MERGE_DEPTH = 32

/**
 * Applies a patch (see {@link DesignPatchSchema}) to a document and returns the patched copy; the
 * input is never changed. The result is **not** validated: pass it to `validateDesign` (as
 * `updateDesign` does).
 *
 * @throws LithoError `ERR_INVALID_REQUEST` for a malformed patch (paths `patch.…`) and for component
 * keys that name nothing (e.g. `patch.components.titel: no component has the key "titel" (did you
 * mean "title"?); existing keys: title, photo, card, price`), with `details.available` listing the
 * existing keys.
 * @example applyDesignPatch(draft, { components: { title: { text: 'Hi' } }, remove: ['badge'] })
 */
export function applyDesignPatch(document: unknown, patch: DesignPatch): Json {
  const reserved = findProtoKey(patch, 'patch')
  if (reserved) throw invalidRequest([{ path: reserved, message: 'expected a field name or component key, received the reserved name "__proto__"' }])
  const parsed = DesignPatchSchema.safeParse(patch, { reportInput: true })
  if (!parsed.success) throw invalidRequest(toLithoIssues(parsed.error, 'patch'))
  const changes = parsed.data
  if (!PATCH_FIELDS.some((field) => changes[field] !== undefined))
    throw invalidRequest([{ path: 'patch', message: `expected at least one change (${PATCH_FIELDS.join(', ')}), received an empty patch` }])

  const doc: Json = isPlainObject(document) ? structuredClone(document) : {}
  if (!Array.isArray(doc.components)) doc.components = []
  const root = doc.components as unknown[]
  const issues: LithoIssue[] = []

  // 1. Top-level fields.
  for (const field of DOCUMENT_FIELDS) {
    const value = changes[field]
    if (value === undefined) continue
    if (value === null) delete doc[field]
    else doc[field] = structuredClone(value)
  }

  // 2. Changes by key, and 3. removals, both against the draft as it was.
  const before = indexTree(root)
  const existing = [...before.keys()]
  let unknownKeys = false
  const unknown = (path: string, key: string, keys: readonly string[], what = 'component'): LithoIssue => {
    unknownKeys = true
    return { path, message: `no ${what} has the key ${JSON.stringify(key)}${suggest(key, keys)}; ${listKeys(keys, what)}` }
  }
  for (const [key, value] of Object.entries(changes.components ?? {})) {
    const path = `patch.components${pathKey(key)}`
    const slot = before.get(key)
    if (!slot) issues.push(unknown(path, key, existing))
    else if (value === null) detach(slot)
    else {
      const problem = checkMergeValue(value, path)
      if (problem) issues.push(problem)
      else mergeInto(slot.component, value)
    }
  }
  changes.remove?.forEach((key, i) => {
    const slot = before.get(key)
    if (slot) detach(slot)
    else issues.push(unknown(`patch.remove[${i}]`, key, existing))
  })

  // 4. Additions, then 5. moves, each seeing the steps before it.
  const current = indexTree(root)
  const groupList = (path: string, key: string, moving?: Json): unknown[] | undefined => {
    const slot = current.get(key)
    const groups = [...current.values()].filter((s) => s.component.type === 'group').map((s) => s.component.key as string)
    if (!slot) {
      issues.push(groups.length > 0 ? unknown(path, key, groups, 'group') : { path, message: `no group has the key ${JSON.stringify(key)}; the design has no groups (omit "parent" for the top level)` })
      return undefined
    }
    if (slot.component.type !== 'group') {
      issues.push({ path, message: `expected the key of a group, received ${JSON.stringify(key)} (a ${String(slot.component.type)} component); ${listKeys(groups, 'group')}` })
      return undefined
    }
    if (moving && contains(moving, slot.component)) {
      issues.push({ path, message: `cannot move ${JSON.stringify(moving.key)} into ${key === moving.key ? 'itself' : `its own descendant ${JSON.stringify(key)}`}` })
      return undefined
    }
    if (!Array.isArray(slot.component.children)) slot.component.children = []
    return slot.component.children as unknown[]
  }
  changes.add?.forEach((item, i) => {
    const list = item.parent === undefined ? root : groupList(`patch.add[${i}].parent`, item.parent)
    if (!list) return
    const component = structuredClone(item.component)
    insertAt(list, component, item.index)
    // The new component (and its children) can be a parent or be moved later; a duplicate key stays the first one's (validation reports it).
    for (const [key, slot] of indexTree([component])) if (!current.has(key)) current.set(key, slot.component === component ? { component, list } : slot)
  })
  changes.move?.forEach((item, i) => {
    const slot = current.get(item.key)
    if (!slot) {
      issues.push(unknown(`patch.move[${i}].key`, item.key, [...current.keys()]))
      return
    }
    const target = item.parent === undefined ? slot.list : item.parent === null ? root : groupList(`patch.move[${i}].parent`, item.parent, slot.component)
    if (!target) return
    detach(slot)
    insertAt(target, slot.component, item.index)
    current.set(item.key, { component: slot.component, list: target })
  })

  if (issues.length > 0) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`
    throw new LithoError('ERR_INVALID_REQUEST', `Invalid patch (${count}):\n${formatIssues(issues)}`, { issues, details: unknownKeys ? { available: existing } : {} })
  }
  return doc
}

/** Every component of a raw tree by key (the first of a duplicate wins), without recursion. */
function indexTree(components: unknown[]): Map<string, Slot> {
  const byKey = new Map<string, Slot>()
  const stack: unknown[][] = [components]
  while (stack.length > 0) {
    const list = stack.pop()!
    for (const item of list) {
      if (!isPlainObject(item)) continue
      if (typeof item.key === 'string' && !byKey.has(item.key)) byKey.set(item.key, { component: item, list })
      if (Array.isArray(item.children)) stack.push(item.children)
    }
  }
  return byKey
}

/** True when `node` is `root` or inside its children, at any depth. */
function contains(root: Json, node: Json): boolean {
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const item = stack.pop()
    if (item === node) return true
    if (isPlainObject(item) && Array.isArray(item.children)) stack.push(...item.children)
  }
  return false
}

function detach(slot: Slot): void {
  const at = slot.list.indexOf(slot.component)
  if (at >= 0) slot.list.splice(at, 1)
}

function insertAt(list: unknown[], component: unknown, index: number | undefined): void {
  list.splice(index === undefined ? list.length : Math.min(index, list.length), 0, component)
}

/** Deep merge: objects merge, arrays and scalars replace, `null` removes the field. */
function mergeInto(target: Json, changes: Json): void {
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue
    if (value === null) delete target[field]
    else if (isPlainObject(value)) {
      const next = isPlainObject(target[field]) ? (target[field] as Json) : {}
      mergeInto(next, value)
      target[field] = next
    } else target[field] = structuredClone(value)
  }
}

/** A merged value must not nest without end: the merge recurses (iterative check). */
function checkMergeValue(value: Json, base: string): LithoIssue | undefined {
  const stack: Array<{ value: Json; path: string; depth: number }> = [{ value, path: base, depth: 0 }]
  while (stack.length > 0) {
    const { value: node, path, depth } = stack.pop()!
    if (depth > MAX_MERGE_DEPTH) return { path, message: `expected objects nested at most ${MAX_MERGE_DEPTH} deep, received deeper` }
    for (const [field, child] of Object.entries(node)) if (isPlainObject(child)) stack.push({ value: child, path: `${path}${pathKey(field)}`, depth: depth + 1 })
  }
  return undefined
}

/**
 * The path of an own `__proto__` key anywhere in `value` (JSON.parse makes one from `"__proto__"`):
 * copied by assignment, as zod and merges do, it would replace a prototype instead of setting a field.
 */
function findProtoKey(value: unknown, base: string): string | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: base }]
  let budget = 100_000
  while (stack.length > 0 && budget-- > 0) {
    const { value: node, path } = stack.pop()!
    if (typeof node !== 'object' || node === null) continue
    if (Object.hasOwn(node, '__proto__')) return `${path}.__proto__`
    if (Array.isArray(node)) node.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]` }))
    else for (const [field, child] of Object.entries(node)) stack.push({ value: child, path: `${path}${pathKey(field)}` })
  }
  return undefined
}

/** `.title`, or `["odd key"]` for keys that are not plain words. */
function pathKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`
}

function listKeys(keys: readonly string[], what: string): string {
  if (keys.length === 0) return `the design has no ${what}s yet`
  const shown = keys.slice(0, 100).join(', ')
  return `existing ${what} keys: ${shown}${keys.length > 100 ? `, … (${keys.length - 100} more)` : ''}`
}

/** ` (did you mean "title"?)` for a near miss, else nothing. */
function suggest(key: string, keys: readonly string[]): string {
  let best: string | undefined
  let bestDistance = Infinity
  for (const candidate of keys) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase())
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance]
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(Math.min(key.length, best.length) / 3)) ? ` (did you mean ${JSON.stringify(best)}?)` : ''
}

/** Edits (insert, delete, substitute, swap two neighbours) between two short strings. */
function editDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Infinity
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1)
    }
  return d[a.length]![b.length]!
}

