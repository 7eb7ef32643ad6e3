/**
 * Render-time overrides of dynamic fields (docs/overrides-and-variations.md,
 * "Overrides"). Parsing never throws for keys that name nothing: they are reported as
 * `ignored` so the response can say why. Values invalid for their field throw
 * `ERR_INVALID_OVERRIDE`, listing every problem at once.
 *
 * @module design/overrides
 */
import type * as z from 'zod'
import { isPlainObject } from '../_internal/is-plain-object.js'
import { LithoError, formatIssues, type LithoIssue } from '../errors.js'
import { getDynamicList } from './dynamic-fields.js'
import { COMPONENT_SCHEMAS, type Component, type DesignDocument } from './schema.js'
import { closestKey } from './suggest.js'
import { toJsonPath, toLithoIssues } from './validate-design.js'
import { indexComponents, mapComponents } from './walk.js'

/** Query names that are render parameters or keys, never overrides (docs/http-reference.md), e.g. `format`. */
export const RESERVED_PARAMETERS: readonly string[] = Object.freeze(['format', 'quality', 'variation', 'delivery', 'expiresIn', 'strict', 'draft', 'webhookUrl', 'dma-api-key', 'key', 'api-key'])

/** Why an override key was ignored, e.g. `'bare_key'` for `title=Hi`. */
export type IgnoredReason = 'bare_key' | 'unknown_component' | 'not_dynamic' | 'unknown_field' | 'reserved'
/** An override key that names nothing, e.g. `{ key: 'titel.text', reason: 'unknown_component', message: '…; did you mean "title.text"?', suggestion: 'title.text' }`. */
export interface IgnoredOverride { key: string; reason: IgnoredReason; message: string; /** The closest overridable key, when one is close enough to be the one meant. */ suggestion?: string }
/** Overrides as a query string, URLSearchParams, or an object, e.g. `'title.text=Hi'` or `{ title: { text: 'Hi' } }`. */
export type OverrideInput = string | URLSearchParams | Record<string, unknown>
/** One override: a dot path and its value, e.g. `{ key: 'title.stroke.color', value: 'red', fromQuery: true }`. */
export interface OverrideEntry { key: string; value: unknown; fromQuery: boolean }
/** The result of {@link parseOverrides}, e.g. `{ entries: [{ key: 'title.text', … }], ignored: [] }`. */
export interface ParsedOverrides { entries: OverrideEntry[]; ignored: IgnoredOverride[] }
/** Options of {@link parseOverrides}, e.g. `{ reserved: [...RESERVED_PARAMETERS, 'w'] }`. */
export interface ParseOverridesOptions { reserved?: readonly string[] }
/** The result of {@link applyOverrides}, e.g. `{ document, applied: ['title.text'], ignored: [] }`. */
export interface AppliedOverrides { document: DesignDocument; applied: string[]; ignored: IgnoredOverride[] }


/**
 * Parses overrides from a query string (with or without "?"), URLSearchParams, a nested
 * object, a flat dot-path object, or a mix; an array of inputs is merged, later wins.
 * A nested object replaces the whole field (`{ bg: { fill: { type: 'linear', … } } }`);
 * a dot path sets one property (`'title.stroke.color'`). `undefined` values are skipped;
 * `null` unsets the field when applied (so `data.flatten` round-trips).
 *
 * @example parseOverrides('?title.text=Hi&format=png').entries // [{ key: 'title.text', value: 'Hi', fromQuery: true }]
 */
export function parseOverrides(input: OverrideInput | readonly OverrideInput[] | null | undefined, options: ParseOverridesOptions = {}): ParsedOverrides {
  const reserved = new Set(options.reserved ?? RESERVED_PARAMETERS)
  const entries = new Map<string, OverrideEntry>()
  const ignored = new Map<string, IgnoredOverride>()
  // Delete first so a later value also moves to the end: `{ 'a.s': {…} }` then `'a.s.color'` keeps its meaning.
  const add = (key: string, value: unknown, fromQuery: boolean) => {
    entries.delete(key)
    entries.set(key, { key, value, fromQuery })
  }
  const bare = (key: string) =>
    ignored.set(key, { key, reason: 'bare_key', message: `"${key}" is a bare component key and names no field; use "${key}.<field>"` })
  const inputs: readonly unknown[] = Array.isArray(input) ? input : [input]
  inputs.forEach((one, index) => {
    if (one === undefined || one === null) return
    if (typeof one === 'string' || one instanceof URLSearchParams) {
      // Query values are always strings; reserved names are render parameters there, so skipping them is expected.
      for (const [key, value] of typeof one === 'string' ? new URLSearchParams(one) : one) {
        if (reserved.has(key)) continue
        if (key.includes('.')) add(key, value, true)
        else bare(key)
      }
    } else if (isPlainObject(one)) {
      for (const [key, value] of Object.entries(one)) {
        if (value === undefined) continue
        if (reserved.has(key)) ignored.set(key, { key, reason: 'reserved', message: `${key} is a render parameter, not an override` })
        else if (key.includes('.')) add(key, value, false)
        else if (isPlainObject(value)) {
          for (const [field, fieldValue] of Object.entries(value)) if (fieldValue !== undefined) add(`${key}.${field}`, fieldValue, false)
        } else bare(key)
      }
    } else {
      const where = Array.isArray(input) ? `[${index}]` : ''
      const issues = [{ path: where, message: `expected a query string or an object, received ${Array.isArray(one) ? 'an array' : typeof one}` }]
      // The message names the position too: in a list, which input was wrong.
      throw new LithoError('ERR_INVALID_OVERRIDE', `Overrides must be a query string or an object of "key.field" values: ${formatIssues(issues)}`, { issues })
    }
  })
  return { entries: [...entries.values()], ignored: [...ignored.values()] }
}

function isParsed(value: unknown): value is ParsedOverrides {
  const v = value as Partial<ParsedOverrides> | null
  return isPlainObject(v) && Array.isArray(v.entries) && Array.isArray(v.ignored)
}

// ---------------------------------------------------------------------------
// Query-string coercion

type AnySchema = z.ZodType
interface SchemaDef { type: string; innerType?: AnySchema; in?: AnySchema; shape?: Record<string, AnySchema>; options?: AnySchema[] }

/** The schema of `segment` inside an object-valued schema (through optional, default and unions). */
function childSchema(schema: AnySchema, segment: string): AnySchema | undefined {
  const def = schema._zod.def as unknown as SchemaDef
  if (def.innerType) return childSchema(def.innerType, segment)
  if (def.type === 'pipe' && def.in) return childSchema(def.in, segment)
  if (def.type === 'object' && def.shape) return Object.hasOwn(def.shape, segment) ? def.shape[segment] : undefined
  if (def.type === 'union') for (const option of def.options ?? []) { const found = childSchema(option, segment); if (found) return found }
  return undefined
}

// Linear: every character has one way to match. The older `\d+\.?\d*` let a run of digits split
// between two quantifiers in n ways, so a 16 KB run of digits ending in a letter took about a
// second (quadratic backtracking), on the event loop, from a public render URL.
const NUMERIC = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?\s*$/i
/**
 * The longest query value tried as a number or a boolean, e.g. `"48"`. A double has at most 17
 * significant digits; 64 leaves room for signs, zeros, an exponent and spaces. Longer values stay
 * strings (then refused by a number field), so coercion never scans more than this.
 *
 * @example MAX_NUMERIC_OVERRIDE_LENGTH // 64
 */
export const MAX_NUMERIC_OVERRIDE_LENGTH = 64
const WRONG_TYPE = new Set(['invalid_type', 'invalid_union', 'invalid_value'])

/**
 * Turns a query string into the field's type. The raw string is tried first so text stays
 * text ("12" for a text field). When nothing fits, parsed JSON, else the first candidate of the
 * right type (e.g. 5000 for fontSize), is kept so the error says what was really wrong.
 */
function coerce(raw: string, schema: AnySchema | undefined): unknown {
  if (!schema) return raw
  const candidates: unknown[] = [raw]
  if (raw.length <= MAX_NUMERIC_OVERRIDE_LENGTH && NUMERIC.test(raw)) candidates.push(Number(raw))
  if (raw === 'true' || raw === '1') candidates.push(true)
  if (raw === 'false' || raw === '0') candidates.push(false)
  let json: { value: unknown } | undefined
  if (/^\s*[[{]/.test(raw)) {
    try { json = { value: JSON.parse(raw) as unknown } } catch { /* not JSON: the raw string gets reported */ }
    if (json) candidates.push(json.value)
  }
  let typed: { value: unknown } | undefined
  for (const candidate of candidates) {
    const result = schema.safeParse(candidate)
    if (result.success) return candidate
    if (!typed && result.error.issues.every((issue) => !WRONG_TYPE.has(issue.code))) typed = { value: candidate }
  }
  // Valid JSON that is still wrong was meant as an object: report what is wrong with the object.
  return (json ?? typed)?.value ?? raw
}

// ---------------------------------------------------------------------------
// Applying

const UNSAFE_SEGMENTS = new Set(['', '__proto__', 'constructor', 'prototype'])

/** Sets `path` inside `target`, copying every object on the way so the input document is never mutated. */
function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target
  for (const segment of path.slice(0, -1)) {
    const copy: Record<string, unknown> = isPlainObject(node[segment]) ? { ...(node[segment] as Record<string, unknown>) } : {}
    node[segment] = copy
    node = copy
  }
  const last = path[path.length - 1] as string
  if (value === null) delete node[last]
  else node[last] = value
}

interface Draft { component: Component; fields: Record<string, unknown>; changes: Array<{ key: string; path: string[] }> }

/** Gives each zod issue the override key that caused it: `title.fontSize`, not `fontSize`. */
function issuesFor(error: z.ZodError, draft: Draft): LithoIssue[] {
  const messages = toLithoIssues(error)
  const startsWith = (long: readonly string[], short: readonly string[]) => short.every((s, j) => long[j] === s)
  return error.issues.map((issue, i) => {
    const at = issue.path.map(String)
    // The most specific override at or above the problem, else one below it (a union failing on the whole field).
    const owner =
      draft.changes.filter((c) => startsWith(at, c.path)).sort((a, b) => b.path.length - a.path.length)[0] ??
      draft.changes.find((c) => startsWith(c.path, at))
    const message = messages[i]?.message ?? issue.message
    if (!owner) return { path: toJsonPath(issue.path, draft.component.key), message }
    const rest = at.slice(owner.path.length)
    return { path: owner.key, message: rest.length > 0 ? `at ${rest.join('.')}: ${message}` : message }
  })
}

/**
 * Applies overrides to a validated document and returns a new one; never mutates the input.
 * Apply them to the base document before {@link resolveVariation} picks a size.
 *
 * @throws LithoError `ERR_INVALID_OVERRIDE` when values are invalid, each issue's path being the override key.
 * @example applyOverrides(doc, 'title.text=Hi&photo.src=https://x.test/a.png').applied // ['title.text', 'photo.src']
 */
export function applyOverrides(document: DesignDocument, overrides: ParsedOverrides | OverrideInput | readonly OverrideInput[]): AppliedOverrides {
  const parsed = isParsed(overrides) ? overrides : parseOverrides(overrides)
  const byKey = indexComponents(document.components)
  const ignored = [...parsed.ignored]
  const applied: string[] = []
  const drafts = new Map<string, Draft>()
  for (const entry of parsed.entries) {
    const [componentKey = '', field = '', ...rest] = entry.key.split('.')
    const component = byKey.get(componentKey)
    const ignore = (reason: IgnoredReason, message: string) => ignored.push({ key: entry.key, reason, message })
    if (!component) {
      ignore('unknown_component', `no component has the key "${componentKey}"`)
      continue
    }
    const schema = COMPONENT_SCHEMAS[component.type]
    const dynamic = getDynamicList(component)
    if (!Object.hasOwn(schema.shape, field) || rest.some((s) => UNSAFE_SEGMENTS.has(s))) {
      ignore('unknown_field', `"${entry.key.slice(componentKey.length + 1)}" is not a field of ${component.type} component "${componentKey}"`)
      continue
    }
    if (!dynamic.includes(field)) {
      const list = dynamic.length > 0 ? `its dynamic fields are ${dynamic.join(', ')}` : 'it has no dynamic fields'
      ignore('not_dynamic', `"${field}" is not a dynamic field of "${componentKey}"; ${list}`)
      continue
    }
    let draft = drafts.get(componentKey)
    if (!draft) {
      // A group is re-validated without its children: they were validated already and may be overridden themselves.
      const fields: Record<string, unknown> = component.type === 'group' ? { ...component, children: [] } : { ...component }
      draft = { component, fields, changes: [] }
      drafts.set(componentKey, draft)
    }
    const path = [field, ...rest]
    const fieldSchema = path.reduce<AnySchema | undefined>((s, segment) => s && childSchema(s, segment), schema as unknown as AnySchema)
    const value = entry.fromQuery && typeof entry.value === 'string' ? coerce(entry.value, fieldSchema) : entry.value
    setPath(draft.fields, path, value)
    draft.changes.push({ key: entry.key, path })
    applied.push(entry.key)
  }

  const issues: LithoIssue[] = []
  const replaced = new Map<string, Component>()
  for (const [key, draft] of drafts) {
    const result = COMPONENT_SCHEMAS[draft.component.type].safeParse(draft.fields, { reportInput: true })
    if (result.success) replaced.set(key, result.data as Component)
    else issues.push(...issuesFor(result.error, draft))
  }
  if (issues.length > 0) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`
    throw new LithoError('ERR_INVALID_OVERRIDE', `Invalid override (${count}):\n${formatIssues(issues)}`, {
      issues,
      details: { keys: [...new Set(issues.map((issue) => issue.path))] },
    })
  }
  const components = mapComponents(document.components, (component) => {
    const next = replaced.get(component.key)
    if (!next) return component
    return component.type === 'group' && next.type === 'group' ? { ...next, children: component.children } : next
  })
  return { document: { ...document, components }, applied, ignored: ignored.length === 0 ? ignored : withSuggestions(ignored, dynamicOverrideKeys(document)) }
}

/**
 * Every key a render may override in `document`: `key.field` for each dynamic field of each
 * component, groups' children included, in document order.
 *
 * @example dynamicOverrideKeys(doc) // ['title.text', 'title.color', 'title.visible', 'photo.src', …]
 */
export function dynamicOverrideKeys(document: DesignDocument): string[] {
  return [...indexComponents(document.components).values()].flatMap((component) => getDynamicList(component).map((field) => `${component.key}.${field}`))
}

/** Adds "did you mean" to ignored keys that are a typo of an overridable key (a bare key: its component's first dynamic field). */
function withSuggestions(ignored: IgnoredOverride[], known: readonly string[]): IgnoredOverride[] {
  return ignored.map((entry) => {
    if (entry.reason === 'reserved' || entry.reason === 'not_dynamic') return entry
    const suggestion = entry.reason === 'bare_key' ? known.find((key) => key.startsWith(`${entry.key}.`)) : closestKey(entry.key, known)
    return suggestion === undefined ? entry : { ...entry, suggestion, message: `${entry.message}; did you mean "${suggestion}"?` }
  })
}
