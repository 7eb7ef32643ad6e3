/**
 * zod schemas as OpenAPI 3.1 JSON Schema (zod v4's `toJSONSchema`, draft 2020-12, input side),
 * without the noise zod adds: as OpenAPI parameters, and as the document's component schemas,
 * which routes name by their zod schema (`jsonResponse('The tokens.', TokenResponseSchema)`).
 *
 * @module openapi/schema
 */
import { registry, toJSONSchema, type ZodType } from 'zod'

/** A JSON Schema (or any JSON object of the document). */
export type JsonSchema = Record<string, unknown>

/** Bounds zod gives every `.int()` (the safe-integer range): noise in a document. */
const SAFE_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])

/** Where the document keeps its component schemas. */
const COMPONENT_PATH = '#/components/schemas/'

/**
 * Drops what says nothing: safe-integer bounds, `propertyNames: { type: 'string' }` (JSON keys
 * are strings); writes zod's "any other property" (`additionalProperties: {}`) as the `true`
 * OpenAPI readers expect (the same schema).
 */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy)
  if (typeof value !== 'object' || value === null) return value
  const out: JsonSchema = {}
  for (const [key, entry] of Object.entries(value)) {
    if ((key === 'minimum' || key === 'maximum') && SAFE_BOUNDS.has(entry as number)) continue
    if (key === 'propertyNames' && JSON.stringify(entry) === '{"type":"string"}') continue
    out[key] = key === 'additionalProperties' && JSON.stringify(entry) === '{}' ? true : tidy(entry)
  }
  return out
}

/** How zod writes every schema of the document: the input side (what a client sends or may rely on), draft 2020-12. */
const JSON_SCHEMA_OPTIONS = { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' } as const

/** `schema` tidied, without the `$schema` and `$id` zod puts at the top (the document says both). */
function topLevel(schema: unknown): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = tidy(schema) as JsonSchema
  return rest
}

/** The JSON Schema of a zod schema, e.g. `schemaOf(BulkRequestSchema)`. */
export const schemaOf = (schema: ZodType): JsonSchema => topLevel(toJSONSchema(schema, JSON_SCHEMA_OPTIONS))

/** What the document knows of a component: its name, and `open` when its objects may carry properties it does not list. */
export interface ComponentMeta {
  id: string
  open?: boolean
}

/** The component schemas of the document, by zod schema (filled by {@link defineComponents}). */
const COMPONENTS = registry<ComponentMeta>()

/**
 * Names zod schemas as component schemas of the document (the keys), in the document's order;
 * those listed in `open` may carry properties they do not list. Returns `components`. Where a
 * component appears inside another, the document refers to it (`$ref`).
 *
 * @example export const OAUTH_COMPONENTS = defineComponents({ OAuthError: OAuthErrorSchema, TokenResponse: TokenResponseSchema })
 */
export function defineComponents<T extends Record<string, ZodType>>(components: T, open: ReadonlyArray<keyof T & string> = []): T {
  for (const [id, schema] of Object.entries(components)) {
    if (COMPONENTS.has(schema)) throw Object.assign(new TypeError(`Expected component ${id} to be a schema not yet named, but it is ${COMPONENTS.get(schema)!.id}`), { code: 'ERR_INVALID_ARG_VALUE' })
    COMPONENTS.add(schema, { id, ...(open.includes(id) ? { open: true } : {}) })
  }
  return components
}

/** The JSON Schemas of the components in `groups` (see {@link defineComponents}), by name, in order. */
export function componentSchemas(...groups: ReadonlyArray<Record<string, ZodType>>): Record<string, JsonSchema> {
  const { schemas } = toJSONSchema(COMPONENTS, {
    ...JSON_SCHEMA_OPTIONS,
    uri: (id) => `${COMPONENT_PATH}${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      if (COMPONENTS.get(zodSchema)?.open) jsonSchema.additionalProperties = true
    },
  })
  // zod puts a schema that refers to itself in `__shared`, which the document has no place for.
  if ('__shared' in schemas) throw new TypeError(`Expected the component schemas to need no shared definitions, but zod made ${Object.keys(schemas.__shared!.$defs ?? {}).join(', ')}`)
  const out: Record<string, JsonSchema> = {}
  for (const group of groups) for (const name of Object.keys(group)) out[name] = topLevel(schemas[name])
  return out
}

/**
 * An OpenAPI value (an operation's responses or request body) with each zod schema in it
 * written as JSON Schema: a reference to its component, or inline (all of it) when it is not one.
 */
export function resolveSchemas(value: unknown): unknown {
  if (isZodSchema(value)) {
    const component = COMPONENTS.get(value)
    return component ? { $ref: `${COMPONENT_PATH}${component.id}` } : schemaOf(value)
  }
  if (Array.isArray(value)) return value.map(resolveSchemas)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, resolveSchemas(entry)]))
}

/** A zod schema, ours or core's (by its shape: `instanceof` does not hold across copies of a package). */
const isZodSchema = (value: unknown): value is ZodType => typeof value === 'object' && value !== null && '_zod' in value

/**
 * One OpenAPI parameter per field of a zod object schema, its description taken from `.meta()`:
 * optional in the query, required in the path, e.g. `parametersOf(ListDesignsParamsSchema, 'query')`.
 */
export function parametersOf(zodSchema: ZodType, location: 'query' | 'path'): JsonSchema[] {
  const schema = schemaOf(zodSchema) as { properties: Record<string, JsonSchema> }
  return Object.entries(schema.properties).map(([name, property]) => {
    const { description, ...rest } = property
    return { name, in: location, required: location === 'path', ...(description === undefined ? {} : { description }), schema: rest }
  })
}
