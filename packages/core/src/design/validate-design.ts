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
  type Component,
  type DesignDocument,
} from './schema.js'
import { indexComponents, walkComponents } from './walk.js'

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

/** Problems with the document that the schema alone cannot see. */
function checkStructure(document: DesignDocument): LithoIssue[] {
  const issues: LithoIssue[] = []
  const seen = new Map<string, string>()
  const inFlow = new Set<string>()
  walkComponents(document.components, (component, { path, parent }) => {
    if (parent?.type === 'group' && parent.layout) inFlow.add(component.key)
    if (component.type === 'text' && component.height === 'auto' && !inFlow.has(component.key)) issues.push({ path: `${path}.height`, message: AUTO_HEIGHT_OUTSIDE_FLOW })
    const first = seen.get(component.key)
    if (first) issues.push({ path: `${path}.key`, message: `expected a unique key, received "${component.key}" (already used at ${first})` })
    else seen.set(component.key, path)
    const allowed = OVERRIDABLE_FIELDS[component.type]
    component.dynamic?.forEach((field, i) => {
      if (!allowed.includes(field))
        issues.push({ path: `${path}.dynamic[${i}]`, message: `expected a field of a ${component.type} component (${allowed.join(', ')}), received "${field}"` })
    })
  })
  const byKey = indexComponents(document.components)
  const ids = new Set<string>()
  document.variations.forEach((variation, v) => {
    const base = `variations[${v}]`
    if (ids.has(variation.id)) issues.push({ path: `${base}.id`, message: `expected a unique variation id, received "${variation.id}"` })
    ids.add(variation.id)
    for (const [key, patch] of Object.entries(variation.components ?? {})) {
      const path = `${base}.components.${key}`
      const component = byKey.get(key)
      if (!component) {
        issues.push({ path, message: `expected the key of a component, received "${key}"` })
        continue
      }
      for (const field of ['key', 'type', 'children', 'dynamic'])
        if (field in patch) issues.push({ path: `${path}.${field}`, message: `a variation cannot change "${field}"` })
      const merged = COMPONENT_SCHEMAS[component.type].safeParse({ ...stripChildren(component), ...patch }, { reportInput: true })
      if (!merged.success) issues.push(...toLithoIssues(merged.error, path))
      else if (patch.height === 'auto' && !inFlow.has(key)) issues.push({ path: `${path}.height`, message: AUTO_HEIGHT_OUTSIDE_FLOW })
    }
  })
  return issues
}

function stripChildren(component: Component): Record<string, unknown> {
  // Children are validated with the group itself; a patch only touches the group's own fields.
  if (component.type !== 'group') return component
  const { children: _children, ...rest } = component
  return { ...rest, children: [] }
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
  const parsed = DesignDocumentSchema.safeParse(document, { reportInput: true })
  if (!parsed.success) throw invalidDesign(toLithoIssues(parsed.error))
  const issues = checkStructure(parsed.data)
  if (issues.length > 0) throw invalidDesign(issues)
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
