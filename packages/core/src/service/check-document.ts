/**
 * Validation with agent-friendly paths (internal to the design operations): a tool input checked
 * against its schema, and a raw document validated with its problems reported at the path of
 * the input that holds it (`document.components[2].fontSize`, `draft.…`) and the key of the
 * component they are in.
 *
 * @module service/check-document
 */
import type * as z from 'zod'
import { invalidRequest } from '../_internal/messages.js'
import { isPlainObject } from '../_internal/is-plain-object.js'
import { MAX_GROUP_DEPTH, MAX_TOTAL_COMPONENTS, type DesignDocument } from '../design/schema.js'
import { toLithoIssues, validateDesign } from '../design/validate-design.js'
import { LithoError, formatIssues } from '../errors.js'

type Json = Record<string, unknown>

/** Validates an input with an agent-facing schema. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input, { reportInput: true })
  if (!result.success) throw invalidRequest(toLithoIssues(result.error))
  return result.data
}

/**
 * Validates a raw document and returns a copy of it as written; problems come back with `prefix`
 * on their paths and the key of the component they are in.
 */
export function checkDocument(document: unknown, prefix: 'document' | 'draft'): Json {
  validated(document, prefix)
  return structuredClone(document) as Json
}

/** `validateDesign`, its issues rethrown with `prefix` on their paths and the key of their component. */
export function validated(document: unknown, prefix: string): DesignDocument {
  try {
    return validateDesign(document)
  } catch (error) {
    if (LithoError.isInstance(error) && error.code === 'ERR_INVALID_DESIGN') throw prefixDesignError(error, document, prefix)
    throw error
  }
}

function prefixDesignError(error: LithoError, document: unknown, prefix: string): LithoError {
  const owners = componentPaths(document)
  const issues = error.issues.map((issue) => {
    const key = ownerOf(issue.path, owners)
    return {
      path: issue.path ? (issue.path.startsWith('[') ? `${prefix}${issue.path}` : `${prefix}.${issue.path}`) : prefix,
      message: key === undefined ? issue.message : `${issue.message} (component "${key}")`,
    }
  })
  const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`
  return new LithoError('ERR_INVALID_DESIGN', `Invalid design document in "${prefix}" (${count}):\n${formatIssues(issues)}`, { issues, cause: error, details: error.details })
}

/** JSON paths of the raw document's components (`components[2].children[0]`) and their keys. */
function componentPaths(document: unknown): Map<string, string> {
  const paths = new Map<string, string>()
  const root = isPlainObject(document) ? document.components : undefined
  const stack: Array<{ list: unknown; path: string; depth: number }> = [{ list: root, path: 'components', depth: 0 }]
  while (stack.length > 0 && paths.size <= MAX_TOTAL_COMPONENTS) {
    const { list, path, depth } = stack.pop()!
    if (!Array.isArray(list) || depth > MAX_GROUP_DEPTH + 1) continue
    list.forEach((item, index) => {
      if (!isPlainObject(item)) return
      const at = `${path}[${index}]`
      if (typeof item.key === 'string' && item.key !== '') paths.set(at, item.key)
      stack.push({ list: item.children, path: `${at}.children`, depth: depth + 1 })
    })
  }
  return paths
}

/** The key of the innermost component whose path starts `path`. */
function ownerOf(path: string, owners: ReadonlyMap<string, string>): string | undefined {
  let end = path.length
  while (end > 0) {
    const candidate = path.slice(0, end)
    const key = owners.get(candidate)
    if (key !== undefined) return key
    end = Math.max(candidate.lastIndexOf('.'), candidate.lastIndexOf('['))
  }
  return undefined
}

