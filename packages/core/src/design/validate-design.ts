/**
 * Validation of design documents: the zod schema plus the rules a schema cannot express
 * (unique keys, valid `dynamic` lists, variation patches that name real components).
 *
 * @module design/validate-design
 */
import type * as z from 'zod'
import { LithoError, formatIssues, type LithoIssue } from '../errors.js'
import {
  COMPONENT_SCHEMAS,
  DesignDocumentSchema,
  MAX_GROUP_DEPTH,
  MAX_TOTAL_COMPONENTS,
  OVERRIDABLE_FIELDS,
  describeReceived,
  type ComponentType,
  type DesignDocument,
} from './schema.js'
import { isPlainObject } from '../_internal/is-plain-object.js'
import { closestKey } from './suggest.js'

/** Turns a zod path into a JSON path: `components[2].fontSize`. */
export function toJsonPath(path: readonly PropertyKey[], base = ''): string {
  let out = base
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`
    else out += out ? `.${String(segment)}` : String(segment)
  }
  return out
}

/** Converts zod issues to Litho issues, with a readable message for zod's built-in ones. */
export function toLithoIssues(error: z.ZodError, base = ''): LithoIssue[] {
  return error.issues.map((issue) => {
    let message = issue.message
    if (issue.code === 'unrecognized_keys') message = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
    else if (message.startsWith('Invalid input')) {
      const input = (issue as { input?: unknown }).input
      const expected = message.replace(/^Invalid input: /, '')
      // indexOf, not /, received .*$/: that pattern rescans the rest of the message from every comma.
      const cut = expected.indexOf(', received ')
      message = `${cut === -1 ? expected : expected.slice(0, cut)}, received ${describeReceived(input)}`
    }
    return { path: toJsonPath(issue.path, base), message }
  })
}

const AUTO_HEIGHT_OUTSIDE_FLOW = 'expected a height in pixels: "auto" (hug the lines) is for a text in a group with layout, received "auto"'

/**
 * Unknown keys of variation patches that get a "did you mean": each costs a comparison with
 * every component key (or field), so a document of thousands of typos stays cheap to refuse.
 */
export const MAX_PATCH_SUGGESTIONS = 20

type Json = Record<string, unknown>

const isComponentType = (type: unknown): type is ComponentType => typeof type === 'string' && Object.hasOwn(COMPONENT_SCHEMAS, type)

/**
 * Problems the schema alone cannot see (unique keys, `dynamic` lists, height "auto" outside
 * auto-layout, variation patches), read from the raw document so that they are reported in the
 * same pass as the schema's, whatever else is wrong. Each problem is reported once: a patch is
 * checked merged with its component, but only for the fields the patch sets.
 */
function checkStructure(document: unknown): LithoIssue[] {
  if (!isPlainObject(document)) return []
  const issues: LithoIssue[] = []
  const seen = new Map<string, string>()
  const inFlow = new Set<string>()
  const byKey = new Map<string, Json>()
  const visit = (list: unknown, base: string, parent: Json | undefined): void => {
    if (!Array.isArray(list)) return
    list.forEach((component: unknown, index) => {
      if (!isPlainObject(component)) return
      const path = `${base}[${index}]`
      const key = typeof component.key === 'string' ? component.key : undefined
      if (key !== undefined) {
        const first = seen.get(key)
        if (first) issues.push({ path: `${path}.key`, message: `expected a unique key, received "${key}" (already used at ${first})` })
        else {
          seen.set(key, path)
          byKey.set(key, component)
        }
        if (parent?.type === 'group' && isPlainObject(parent.layout)) inFlow.add(key)
      }
      if (component.type === 'text' && component.height === 'auto' && (key === undefined || !inFlow.has(key))) issues.push({ path: `${path}.height`, message: AUTO_HEIGHT_OUTSIDE_FLOW })
      if (isComponentType(component.type) && Array.isArray(component.dynamic)) {
        const allowed = OVERRIDABLE_FIELDS[component.type]
        component.dynamic.forEach((field: unknown, i) => {
          if (typeof field === 'string' && !allowed.includes(field))
            issues.push({ path: `${path}.dynamic[${i}]`, message: `expected a field of a ${component.type} component (${allowed.join(', ')}), received "${field}"` })
        })
      }
      if (component.type === 'group') visit(component.children, `${path}.children`, component)
    })
  }
  visit(document.components, 'components', undefined)
  const keys = [...byKey.keys()]
  let suggestions = 0
  const suggest = (input: string, candidates: readonly string[]): string => {
    if (suggestions >= MAX_PATCH_SUGGESTIONS) return ''
    suggestions++
    const closest = closestKey(input, candidates)
    return closest === undefined ? '' : `; did you mean "${closest}"?`
  }
  const ids = new Set<string>()
  const variations = Array.isArray(document.variations) ? document.variations : []
  variations.forEach((variation: unknown, v) => {
    if (!isPlainObject(variation)) return
    const base = `variations[${v}]`
    if (typeof variation.id === 'string') {
      if (ids.has(variation.id)) issues.push({ path: `${base}.id`, message: `expected a unique variation id, received "${variation.id}"` })
      ids.add(variation.id)
    }
    if (!isPlainObject(variation.components)) return
    for (const [key, patch] of Object.entries(variation.components)) {
      if (!isPlainObject(patch)) continue
      const path = `${base}.components.${key}`
      const component = byKey.get(key)
      if (!component) {
        issues.push({ path, message: `expected the key of a component, received "${key}"${suggest(key, keys)}` })
        continue
      }
      // No prototype: a patch field named "__proto__" stays a field (and is reported as unknown).
      const fields: Json = Object.create(null) as Json
      for (const [field, value] of Object.entries(patch)) {
        if (FIXED_IN_PATCH.includes(field)) issues.push({ path: `${path}.${field}`, message: `a variation cannot change "${field}"` })
        else fields[field] = value
      }
      if (!isComponentType(component.type)) continue
      issues.push(...patchIssues(component.type, component, fields, path, suggest))
      if (fields.height === 'auto' && !inFlow.has(key)) issues.push({ path: `${path}.height`, message: AUTO_HEIGHT_OUTSIDE_FLOW })
    }
  })
  return issues
}

const FIXED_IN_PATCH = ['key', 'type', 'children', 'dynamic']

/** The problems of `fields` patched onto `component`: those of the fields the patch sets, not the component's own. */
function patchIssues(type: ComponentType, component: Json, fields: Json, path: string, suggest: (input: string, candidates: readonly string[]) => string): LithoIssue[] {
  // Children are validated with the group itself; a patch only touches the group's own fields.
  const merged = COMPONENT_SCHEMAS[type].safeParse({ ...component, ...(type === 'group' ? { children: [] } : {}), ...fields }, { reportInput: true })
  if (merged.success) return []
  const issues: LithoIssue[] = []
  for (const issue of merged.error.issues) {
    if (issue.code === 'unrecognized_keys' && issue.path.length === 0) {
      const known = Object.keys(COMPONENT_SCHEMAS[type].shape)
      for (const field of issue.keys.filter((k) => Object.hasOwn(fields, k)))
        issues.push({ path, message: `unknown field "${field}"${suggest(field, known)}` })
    } else if (typeof issue.path[0] === 'string' && Object.hasOwn(fields, issue.path[0])) {
      issues.push(...toLithoIssues({ issues: [issue] } as z.ZodError, path))
    }
  }
  return issues
}

/**
 * Validates a design document and returns it with every default applied.
 *
 * @throws LithoError `ERR_INVALID_DESIGN` listing every problem with its JSON path and
 * what was expected, e.g. `components[2].fontSize: expected a number between 1 and 1000, received "big"`.
 * @example
 * const design = validateDesign(JSON.parse(fs.readFileSync('card.json', 'utf8')))
 */
export function validateDesign(document: unknown): DesignDocument {
  // Size first, iteratively: the schema recurses per group level and must never see a
  // document deep enough to exhaust the stack.
  const size = checkSize(document)
  if (size.length > 0) throw invalidDesign(size)
  // One pass: the schema's problems and the structure's (patches included) together.
  const parsed = DesignDocumentSchema.safeParse(document, { reportInput: true })
  const issues = [...(parsed.success ? [] : toLithoIssues(parsed.error)), ...checkStructure(document)]
  if (issues.length > 0 || !parsed.success) throw invalidDesign(issues)
  return parsed.data
}

/** Nesting depth and total component count of the raw input, without recursion. */
function checkSize(document: unknown): LithoIssue[] {
  const root = (document as { components?: unknown } | null)?.components
  if (!Array.isArray(root)) return []
  const stack: Array<{ list: unknown[]; path: string; depth: number }> = [{ list: root, path: 'components', depth: 0 }]
  let total = 0
  while (stack.length > 0) {
    const { list, path, depth } = stack.pop()!
    total += list.length
    if (total > MAX_TOTAL_COMPONENTS) return [{ path: 'components', message: `expected at most ${MAX_TOTAL_COMPONENTS} components in the whole document, received more` }]
    list.forEach((item, index) => {
      const children = (item as { children?: unknown } | null)?.children
      if (!Array.isArray(children)) return
      const childPath = `${path}[${index}].children`
      if (depth + 1 > MAX_GROUP_DEPTH) throw invalidDesign([{ path: childPath, message: `expected groups nested at most ${MAX_GROUP_DEPTH} deep, received deeper` }])
      stack.push({ list: children, path: childPath, depth: depth + 1 })
    })
  }
  return []
}

function invalidDesign(issues: LithoIssue[]): LithoError {
  const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`
  return new LithoError('ERR_INVALID_DESIGN', `Invalid design document (${count}):\n${formatIssues(issues)}`, { issues })
}
