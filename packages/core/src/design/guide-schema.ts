/**
 * Reads the zod schemas of the design document for the guide (internal): field lists with
 * readable types, defaults and descriptions, the limits the overview quotes, and the JSON
 * Schema. zod v4 keeps a schema's structure in `_zod.def`; only the few def shapes the design
 * schema uses are read here.
 *
 * @module design/guide-schema
 */
import * as z from 'zod'
import {
  COMPONENT_SCHEMAS,
  ColorSchema,
  ComponentSchema,
  DesignDocumentSchema,
  FontFaceSchema,
  LayoutSchema,
  LinearGradientSchema,
  PaintSchema,
  RadialGradientSchema,
  RadiusSchema,
  TextComponentSchema,
  VariationSchema,
} from './schema.js'

/** One field of a component (or of a shared type), as the guide reports it. */
export interface GuideField {
  name: string
  /** A readable type, e.g. `number (1–1000)`, `"left" | "center"`, `Paint`, `boolean`. */
  type: string
  /** The value used when the field is omitted (absent when there is none). */
  default?: unknown
  description: string
  required: boolean
}

// Fields that schema.ts does not describe yet. A description in the schema always wins over these.
const MISSING_DESCRIPTIONS: Record<string, string> = {
  'document.fonts': 'Extra font faces, usable by family name in fontFamily.',
  'document.variations': 'Extra output sizes; the base size is always available as "master".',
  'text.fontStyle': 'Upright ("normal") or italic glyphs.',
  'text.textTransform': 'Changes the letter case when drawing; the text itself is unchanged.',
  'qrcode.color': 'Colour of the dark modules.',
  'qrcode.background': 'Colour behind the code and its quiet zone.',
  'barcode.symbology': 'The barcode standard to draw.',
  'barcode.color': 'Colour of the bars.',
  'barcode.background': 'Colour behind the barcode.',
  'group.children': 'The components inside the group, positioned relative to it and painted in order.',
  'Variation.id': 'The value to pass as `variation` when rendering; never "master".',
  'Variation.name': 'A label for people.',
  'Variation.width': 'Output width in pixels.',
  'Variation.height': 'Output height in pixels.',
  'FontFace.weight': 'The weight this file provides (400 regular, 700 bold).',
  'FontFace.style': 'The style this file provides.',
  'LinearGradient.stops': 'Colour stops, in order of offset.',
  'RadialGradient.stops': 'Colour stops from the centre outwards.',
  'Stroke.color': 'Outline colour.',
  'Stroke.width': 'Outline thickness in pixels.',
  'Stroke.style': 'Solid, dashed or dotted outline.',
  'Shadow.color': 'Shadow colour, usually translucent.',
  'Layout.direction': '"row" places children left to right, "column" top to bottom.',
  'Layout.padding': 'Space between the group edge and its children.',
}

export type Schema = z.core.$ZodType

interface CheckDef {
  check: string
  value?: number
  inclusive?: boolean
  format?: string
  maximum?: number
  minimum?: number
}

interface Def {
  type: string
  innerType?: Schema
  defaultValue?: unknown
  checks?: Array<{ _zod: { def: CheckDef } }>
  entries?: Record<string, string | number>
  values?: unknown[]
  options?: Schema[]
  element?: Schema
  shape?: Record<string, Schema>
  in?: Schema
  keyType?: Schema
  valueType?: Schema
}

export const defOf = (schema: Schema): Def => schema._zod.def as unknown as Def
export const descriptionOf = (schema: Schema): string | undefined => z.globalRegistry.get(schema)?.description
const checksOf = (schema: Schema): CheckDef[] => (defOf(schema).checks ?? []).map((check) => check._zod.def)
export const shapeOf = (schema: Schema): Record<string, Schema> => defOf(schema).shape ?? {}
const unwrapOptional = (schema: Schema): Schema => defOf(schema).innerType ?? schema

/** Shared types, by the name the guide uses for them (identity of the schema object). */
export const SHARED_TYPES: ReadonlyArray<readonly [string, Schema]> = [
  ['Paint', PaintSchema],
  ['Color', ColorSchema],
  ['LinearGradient', LinearGradientSchema],
  ['RadialGradient', RadialGradientSchema],
  ['Radius', RadiusSchema],
  // Not exported by schema.ts; reached through the fields that use them.
  ['Stroke', unwrapOptional(TextComponentSchema.shape.border)],
  ['Shadow', unwrapOptional(TextComponentSchema.shape.shadow)],
  ['Padding', unwrapOptional(TextComponentSchema.shape.padding)],
  ['Layout', LayoutSchema],
]
export const DOCUMENT_TYPES: ReadonlyArray<readonly [string, Schema]> = [
  ['Variation', VariationSchema],
  ['FontFace', FontFaceSchema],
]
const TYPE_NAMES = new Map<Schema, string>([...SHARED_TYPES, ...DOCUMENT_TYPES].map(([name, schema]) => [schema, name]))
TYPE_NAMES.set(ComponentSchema, 'Component')

const WRAPPERS = new Set(['optional', 'default', 'prefault'])

/** Strips optional/default wrappers: the inner schema, whether it is required, its default and its description. */
function readField(schema: Schema): { inner: Schema; required: boolean; default?: { value: unknown }; description?: string } {
  let inner = schema
  let required = true
  let dflt: { value: unknown } | undefined
  let description = descriptionOf(inner)
  for (let def = defOf(inner); WRAPPERS.has(def.type) && def.innerType; def = defOf(inner)) {
    required = false
    if (def.type !== 'optional' && !dflt) dflt = { value: def.defaultValue }
    inner = def.innerType
    // A shared type's own description is generic ("A CSS colour…"); a field-specific note is preferred.
    if (!TYPE_NAMES.has(inner)) description ??= descriptionOf(inner)
  }
  return { inner, required, ...(dflt ? { default: dflt } : {}), ...(description ? { description } : {}) }
}

function numberType(schema: Schema): string {
  let min: string | undefined
  let max: string | undefined
  let integer = false
  for (const check of checksOf(schema)) {
    if (check.check === 'number_format' && /int/.test(check.format ?? '')) integer = true
    else if (check.check === 'greater_than') min = `${check.inclusive ? '' : '>'}${check.value}`
    else if (check.check === 'less_than') max = `${check.inclusive ? '' : '<'}${check.value}`
  }
  const base = integer ? 'integer' : 'number'
  if (min !== undefined && max !== undefined) return `${base} (${min}–${max})`
  if (min !== undefined) return `${base} (≥ ${min})`
  if (max !== undefined) return `${base} (≤ ${max})`
  return base
}

/** A readable type for a schema; shared types by name unless `expand` is set. */
export function typeString(schema: Schema, expand = false): string {
  const name = expand ? undefined : TYPE_NAMES.get(schema)
  if (name) return name
  const def = defOf(schema)
  switch (def.type) {
    case 'string':
      return 'string'
    case 'number':
      return numberType(schema)
    case 'boolean':
      return 'boolean'
    case 'literal':
      return (def.values ?? []).map((v) => JSON.stringify(v)).join(' | ')
    case 'enum':
      return Object.values(def.entries ?? {}).map((v) => JSON.stringify(v)).join(' | ')
    case 'union':
      return [...new Set((def.options ?? []).map((option) => typeString(option)))].join(' | ')
    case 'pipe':
      return def.in ? typeString(def.in) : 'unknown'
    case 'array': {
      const element = def.element ? typeString(def.element) : 'unknown'
      return element.includes(' ') ? `Array<${element}>` : `${element}[]`
    }
    case 'object':
      return `{ ${Object.entries(shapeOf(schema))
        .map(([key, field]) => {
          const read = readField(field)
          return `${key}${read.required ? '' : '?'}: ${typeString(read.inner)}`
        })
        .join(', ')} }`
    case 'record':
      return `Record<${def.keyType ? typeString(def.keyType) : 'string'}, ${def.valueType ? typeString(def.valueType) : 'unknown'}>`
    case 'optional':
    case 'default':
    case 'prefault':
      return def.innerType ? typeString(def.innerType) : 'unknown'
    default:
      return def.type
  }
}

/** The guide's field list for an object schema. `context` picks fallback notes (`text`, `Stroke`, …). */
export function describeFields(schema: Schema, context: string): GuideField[] {
  return Object.entries(shapeOf(schema)).map(([name, fieldSchema]) => {
    const read = readField(fieldSchema)
    const literal = defOf(read.inner).type === 'literal' ? defOf(read.inner).values?.[0] : undefined
    const description =
      read.description ??
      MISSING_DESCRIPTIONS[`${context}.${name}`] ??
      (literal !== undefined ? `Always ${JSON.stringify(literal)}.` : undefined) ??
      descriptionOf(read.inner) ??
      ''
    return {
      name,
      type: typeString(read.inner),
      ...(read.default ? { default: read.default.value } : {}),
      description,
      required: read.required,
    }
  })
}

export interface Limits {
  components: number
  children: number
  fonts: number
  variations: number
  text: number
  minStops: number
  maxStops: number
}

function lengthLimit(field: Schema, check: 'max_length' | 'min_length'): number {
  const key = check === 'max_length' ? 'maximum' : 'minimum'
  const found = checksOf(readField(field).inner).find((c) => c.check === check)?.[key]
  if (found === undefined) throw new Error(`design guide: no ${check} on a field the overview quotes`)
  return found
}

export function readLimits(): Limits {
  const doc = DesignDocumentSchema.shape
  const stops = LinearGradientSchema.shape.stops
  return {
    components: lengthLimit(doc.components, 'max_length'),
    children: lengthLimit(COMPONENT_SCHEMAS.group.shape.children, 'max_length'),
    fonts: lengthLimit(doc.fonts, 'max_length'),
    variations: lengthLimit(doc.variations, 'max_length'),
    text: lengthLimit(TextComponentSchema.shape.text, 'max_length'),
    minStops: lengthLimit(stops, 'min_length'),
    maxStops: lengthLimit(stops, 'max_length'),
  }
}

// zod names the recursive component schema `__schema0`; give it a readable name.
export function buildJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(DesignDocumentSchema, { io: 'input' }) as Record<string, unknown>
  const defs = schema.$defs as Record<string, { oneOf?: Array<{ properties?: { type?: { const?: unknown } } }> }> | undefined
  const generated = Object.keys(defs ?? {}).filter((name) => {
    const types = defs?.[name]?.oneOf?.map((option) => option.properties?.type?.const)
    return types?.length === Object.keys(COMPONENT_SCHEMAS).length && types.every((t) => typeof t === 'string' && t in COMPONENT_SCHEMAS)
  })
  if (generated.length !== 1 || generated[0] === 'Component') return schema
  const from = JSON.stringify(`#/$defs/${generated[0]}`)
  const renamed = JSON.parse(JSON.stringify(schema).replaceAll(from, JSON.stringify('#/$defs/Component'))) as Record<string, unknown>
  const renamedDefs = renamed.$defs as Record<string, unknown>
  renamed.$defs = Object.fromEntries(Object.entries(renamedDefs).map(([name, value]) => [name === generated[0] ? 'Component' : name, value]))
  return renamed
}
