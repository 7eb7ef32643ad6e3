/**
 * zod schemas as OpenAPI 3.1 JSON Schema (zod v4's `toJSONSchema`, draft 2020-12, input side),
 * without the noise zod adds, and as OpenAPI parameters.
 *
 * @module openapi/schema
 */
import { toJSONSchema, type ZodType } from 'zod'

/** A JSON Schema (or any JSON object of the document). */
export type JsonSchema = Record<string, unknown>

/** Bounds zod gives every `.int()` (the safe-integer range): noise in a document. */
const SAFE_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])

/** Drops what says nothing: safe-integer bounds and `propertyNames: { type: 'string' }` (JSON keys are strings). */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy)
  if (typeof value !== 'object' || value === null) return value
  const out: JsonSchema = {}
  for (const [key, entry] of Object.entries(value)) {
    if ((key === 'minimum' || key === 'maximum') && SAFE_BOUNDS.has(entry as number)) continue
    if (key === 'propertyNames' && JSON.stringify(entry) === '{"type":"string"}') continue
    out[key] = tidy(entry)
  }
  return out
}

/** The JSON Schema of a zod schema, e.g. `schemaOf(BulkRequestSchema)`. */
export const schemaOf = (schema: ZodType): JsonSchema => {
  const out = tidy(toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' })) as JsonSchema
  delete out.$schema
  return out
}

/** A reference to the component schema `name`. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** `schema` with the items of its array property `property` replaced by a reference to `name`. */
export function withItemsRef(schema: JsonSchema, property: string, name: string): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema>
  return { ...schema, properties: { ...properties, [property]: { ...properties[property], items: ref(name) } } }
}

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
