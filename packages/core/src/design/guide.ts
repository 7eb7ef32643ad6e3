/**
 * The design guide: everything an author (a person or an AI agent that has never seen Litho)
 * needs to write a valid design document. Field lists, types, defaults, descriptions and the
 * JSON Schema are derived from the zod schemas in `contracts/schemas/design-document.ts`, so the guide, the MCP tool
 * `get_design_guide` and the generated docs can never disagree with what is validated. Only the
 * prose (overview, summaries) and the examples are written here; tests validate the examples.
 *
 * @module design/guide
 */
import * as z from 'zod'
import {
  BARCODE_SYMBOLOGIES,
  COMPONENT_SCHEMAS,
  ColorSchema,
  ComponentSchema,
  DEFAULT_DYNAMIC,
  DesignDocumentSchema,
  FontFaceSchema,
  LayoutSchema,
  LinearGradientSchema,
  MAX_DIMENSION,
  MAX_GROUP_DEPTH,
  MAX_TOTAL_COMPONENTS,
  OVERRIDABLE_FIELDS,
  PaintSchema,
  RadialGradientSchema,
  RadiusSchema,
  TextComponentSchema,
  VariationSchema,
  type ComponentInput,
  type ComponentType,
  type DesignDocumentInput,
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

/** The guide to one component type. */
export interface ComponentGuide {
  type: ComponentType
  summary: string
  fields: GuideField[]
  defaultDynamic: readonly string[]
  example: ComponentInput
}

/** The whole design guide, as `get_design_guide` returns it. */
export interface DesignGuide {
  version: 2
  /** JSON Schema (draft 2020-12) of the document as written, defaults optional. */
  jsonSchema: Record<string, unknown>
  overview: string
  components: ComponentGuide[]
  example: DesignDocumentInput
  markdown: string
}

// ---------------------------------------------------------------------------
// Example assets: tiny PNGs generated once with sharp, inlined so every example renders offline.

/** An 8x8 PNG "product photo" (a dark shape on a warm backdrop). */
const PHOTO_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAmUlEQVQI11XJkRLEIRCA8R7nHuCe4Z5pbS0LsyxbWEqiKEqiJkiCIEgW4ruZo//Mj75P3Ua3+dvcbfY2c5u+DW8DJZWkeqlOqpVqpGqpKBXUKXSKP8W93p+fU/QpeAqonWln/69/O+POoFailR5jJVwJ1Iw042PMiDOCGoFG8CO4EewIZgQ9Ao4AqjN19p1dZ9vZdNadsTN8AdzAeE/IHgn1AAAAAElFTkSuQmCC'
/** A 4x4 PNG two-tone "logo". */
const LOGO_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAHUlEQVQI12P4H2UGQSISagxwFpQDYYE4cJaIhBoArcEMj7FUFScAAAAASUVORK5CYII='

// ---------------------------------------------------------------------------
// Examples: the pieces of one product card. Each per-type example is a component of it.

const CARD = {
  type: 'shape',
  key: 'card',
  name: 'Card',
  x: 60,
  y: 60,
  width: 960,
  height: 960,
  shape: 'rectangle',
  fill: '#ffffff',
  radius: 48,
  border: { color: '#f1d6bd', width: 2 },
  dynamic: [],
} satisfies ComponentInput

const PHOTO = {
  type: 'image',
  key: 'photo',
  name: 'Product photo',
  x: 100,
  y: 100,
  width: 880,
  height: 500,
  src: PHOTO_PNG,
  fit: 'cover',
  focus: { x: 0.5, y: 0.55 },
  radius: 32,
} satisfies ComponentInput

const LOGO = {
  type: 'image',
  key: 'logo',
  x: 130,
  y: 130,
  width: 64,
  height: 64,
  src: LOGO_PNG,
  fit: 'contain',
  radius: 12,
  dynamic: [],
} satisfies ComponentInput

const SALE_BADGE = {
  type: 'shape',
  key: 'sale-badge',
  name: 'Sale badge',
  x: 820,
  y: 70,
  width: 200,
  height: 200,
  shape: 'ellipse',
  fill: {
    type: 'radial',
    center: { x: 0.35, y: 0.3 },
    stops: [
      { offset: 0, color: '#ff8a5c' },
      { offset: 1, color: '#e0361f' },
    ],
  },
  stroke: { color: '#ffffff', width: 6 },
} satisfies ComponentInput

const SALE_LABEL = {
  type: 'text',
  key: 'sale-label',
  x: 820,
  y: 70,
  width: 200,
  height: 200,
  rotation: -12,
  text: '-30%',
  fontSize: 56,
  fontWeight: 800,
  color: '#ffffff',
  align: 'center',
  verticalAlign: 'middle',
  dynamic: ['text', 'visible'],
} satisfies ComponentInput

const TITLE = {
  type: 'text',
  key: 'title',
  name: 'Product title',
  x: 100,
  y: 630,
  width: 880,
  height: 130,
  text: 'Aurora Wireless Headphones',
  fontFamily: 'sans-serif',
  fontSize: 60,
  fontWeight: 700,
  color: '#141826',
  lineHeight: 1.05,
  letterSpacing: -1,
  maxLines: 2,
  autoFit: { min: 36 },
} satisfies ComponentInput

const SUBTITLE = {
  type: 'text',
  key: 'subtitle',
  x: 100,
  y: 768,
  width: 880,
  height: 44,
  text: '40-hour battery · Active noise cancelling',
  fontFamily: 'serif',
  fontSize: 30,
  fontStyle: 'italic',
  color: '#5b6170',
  maxLines: 1,
  dynamic: ['text', 'visible'],
} satisfies ComponentInput

const DIVIDER = {
  type: 'shape',
  key: 'divider',
  x: 100,
  y: 826,
  width: 880,
  height: 4,
  shape: 'line',
  stroke: { color: '#f1d6bd', width: 2, style: 'dashed' },
  dynamic: [],
} satisfies ComponentInput

const PRICE_TAG = {
  type: 'group',
  key: 'price-tag',
  name: 'Price tag',
  x: 100,
  y: 877,
  width: 400,
  height: 96,
  background: '#141826',
  radius: 48,
  layout: { direction: 'row', gap: 16, align: 'center', justify: 'start', padding: { left: 32, right: 32 } },
  children: [
    {
      type: 'text',
      key: 'price',
      width: 170,
      height: 60,
      text: '€129',
      fontSize: 48,
      fontWeight: 'bold',
      color: '#ffffff',
      verticalAlign: 'middle',
      autoFit: { min: 28 },
      dynamic: ['text', 'visible'],
    },
    {
      type: 'text',
      key: 'old-price',
      width: 150,
      height: 40,
      text: 'was €179',
      fontSize: 26,
      color: '#9aa0ad',
      verticalAlign: 'middle',
    },
  ],
} satisfies ComponentInput

const EAN = {
  type: 'barcode',
  key: 'ean',
  x: 540,
  y: 860,
  width: 240,
  height: 130,
  value: '4006381333931',
  symbology: 'ean13',
  color: '#141826',
  background: '#ffffff',
} satisfies ComponentInput

const QR = {
  type: 'qrcode',
  key: 'qr',
  x: 820,
  y: 850,
  width: 150,
  height: 150,
  value: 'https://example.com/p/aurora?utm_source=card',
  color: '#141826',
  background: '#ffffff',
  errorCorrection: 'M',
  margin: 1,
} satisfies ComponentInput

const COMPONENT_EXAMPLES: Record<ComponentType, ComponentInput> = {
  text: TITLE,
  image: PHOTO,
  shape: SALE_BADGE,
  qrcode: QR,
  barcode: EAN,
  group: PRICE_TAG,
}

const DOCUMENT_EXAMPLE: DesignDocumentInput = {
  version: 2,
  name: 'Product card',
  width: 1080,
  height: 1080,
  background: {
    type: 'linear',
    angle: 160,
    stops: [
      { offset: 0, color: '#fff7ed' },
      { offset: 1, color: '#fde2c8' },
    ],
  },
  components: [CARD, PHOTO, LOGO, SALE_BADGE, SALE_LABEL, TITLE, SUBTITLE, DIVIDER, PRICE_TAG, EAN, QR] as DesignDocumentInput['components'],
  variations: [
    {
      id: 'story',
      name: 'Story',
      width: 1080,
      height: 1920,
      components: {
        card: { height: 1800 },
        photo: { height: 900 },
        title: { y: 1060, height: 200, fontSize: 84 },
        subtitle: { y: 1280, height: 90, maxLines: 2 },
        divider: { y: 1390 },
        'price-tag': { y: 1450 },
        ean: { x: 100, y: 1610, width: 360, height: 180 },
        qr: { x: 760, y: 1590, width: 220, height: 220 },
      },
    },
    { id: 'thumbnail', name: 'Thumbnail', width: 540, height: 540 },
  ],
}

// ---------------------------------------------------------------------------
// Prose: the only hand-written parts besides the examples.

const SUMMARIES: Record<ComponentType, string> = {
  text:
    'A block of text that wraps inside its box. `align` and `verticalAlign` place the text in the box; `maxLines` cuts it with "…"; ' +
    '`autoFit: { "min": 24 }` shrinks the font from `fontSize` until the text fits, which is what dynamic text of unknown length needs. ' +
    'Right-to-left scripts (Arabic, Hebrew) are detected automatically.',
  image:
    'An image from an https URL or a `data:image/…` URI, drawn into its box: `fit: "cover"` fills the box and crops (keeping `focus` near the centre), ' +
    '`"contain"` fits the whole image inside it, `"fill"` stretches. `radius` rounds the corners. Keep `src` dynamic to swap the picture per render.',
  shape:
    'A rectangle, ellipse or line. Rectangles and ellipses are painted with `fill` (a colour or a gradient) and outlined with `stroke`; ' +
    '`radius` rounds rectangle corners. A line runs horizontally across the middle of its box with the colour and thickness of `stroke`; rotate it for other angles.',
  qrcode:
    'A QR code for `value` (a URL or any text), square, scaled to the smaller side of its box and centred. Keep strong contrast between `color` and `background`; ' +
    'raise `errorCorrection` when the code is printed small or partly covered.',
  barcode:
    `A barcode for \`value\`, stretched to its box. \`symbology\` is one of ${BARCODE_SYMBOLOGIES.map((s) => `\`${s}\``).join(', ')}; ` +
    'code128 takes any text, EAN and UPC take digits only (the check digit may be left off). `showText` prints the value under linear barcodes.',
  group:
    'A container. Children are positioned relative to the group\'s top-left corner and painted, in their own order, where the group sits in its parent\'s order. ' +
    'With `layout` the group is a flex box: children are placed in a row or column with `gap`, `align`, `justify` and `padding`, and their `x`/`y` are ignored. ' +
    '`background`, `radius` and `clip` style the group box; hiding a group hides its children.',
}

function overviewText(limits: Limits): string {
  const defaults = (Object.keys(DEFAULT_DYNAMIC) as ComponentType[]).map((type) => `${type}: ${DEFAULT_DYNAMIC[type].join(', ')}`).join('; ')
  return `A Litho design is one JSON document (\`"version": 2\`): a canvas size, a background and a list of positioned components, some of whose fields are dynamic — overridden per render (a name, a price, a photo) without editing the design. Renders are PNG, JPEG, WebP or PDF (one page whose size in points equals the design's size in pixels).

**Coordinates.** Every length is in pixels of the base size (\`width\` × \`height\`). \`x\` and \`y\` are the top-left corner of a component's box and \`width\` and \`height\` its size; both are required on every component. \`rotation\` turns the box clockwise (degrees) around its centre. Children of a \`group\` are positioned relative to the group's top-left corner; a group with \`layout\` places its children itself and ignores their \`x\`/\`y\`.

**Paint order.** \`components\` are painted in order: the first is at the bottom, each later one covers what is below it. A group's children are painted in their own order at the group's place. \`opacity\` (0–1) and \`visible\` apply to the component and everything in it.

**Paint.** Fills and backgrounds take a Paint: a CSS colour string (\`"#1a1a1a"\`, \`"#1a1a1a80"\`, \`"#fff"\`, \`"rgb(0 0 0 / 50%)"\`, \`"rgba(0,0,0,0.5)"\`, \`"hsl(120, 50%, 50%)"\`, \`"rebeccapurple"\`, \`"transparent"\`) or a gradient object — \`{ "type": "linear", "angle": 180, "stops": [{ "offset": 0, "color": "#ffffff" }, { "offset": 1, "color": "#000000" }] }\` (angle as in CSS: 0 bottom → top, 90 left → right, 180 top → bottom) or \`{ "type": "radial", "center": { "x": 0.5, "y": 0.5 }, "stops": [ … ] }\` (centre as fractions of the box). A gradient has ${limits.minStops} to ${limits.maxStops} stops with offsets from 0 to 1. Fields named \`color\`, and the \`background\` of qrcode and barcode, take a colour string only.

**Fonts.** \`fontFamily\` \`"sans-serif"\`, \`"serif"\` and \`"monospace"\` always work with no setup: they are the built-in Inter, Noto Serif and JetBrains Mono, which may also be named directly. Emoji, Arabic, Hebrew, Chinese, Japanese and Korean characters fall back to built-in fonts automatically. For another font add a face to \`fonts\` — \`{ "family": "Brand", "src": "https://example.com/brand-bold.woff2", "weight": 700 }\` — and use \`"fontFamily": "Brand"\`.

**Images.** \`src\` is an https URL or a \`data:image/…\` URI (JPEG, PNG, WebP, GIF, AVIF or SVG). File paths and other schemes are rejected.

**Dynamic fields and overrides.** A component's \`dynamic\` lists the fields a render may override. Omitted, the type's default list applies (${defaults}); \`[]\` fixes the component. A render addresses a field as \`key.field\`: \`?title.text=Summer%20sale\` in a query string, or \`{ "title.text": "Summer sale" }\` or \`{ "title": { "text": "Summer sale" } }\` in a JSON body. Keys are unique in the whole document, so a component inside a group is addressed by its own key. The render config's \`data.flatten\` lists every overridable field with its current value (\`{ "title.text": "Aurora Wireless Headphones", "photo.src": "https://…" }\`); \`data.pure\` is the same, nested by key. Query-string values are converted to the field's type (number, boolean); a value that is invalid for the field (a malformed colour, a word for a number) fails that render with a message naming the field. A bare key, an unknown key or a field not in \`dynamic\` changes nothing and is reported back as a warning.

**Variations.** \`variations\` adds output sizes; the base size is always available as variation \`master\`. A variation without \`components\` scales the whole base layout uniformly to fit its size and centres it. A variation with \`components\` is a set of patches by component key, e.g. \`{ "title": { "y": 1500, "fontSize": 72 } }\`, whose values are in the variation's own pixels; a patch may set any field except \`key\`, \`type\`, \`children\` and \`dynamic\`, and must leave the component valid. Variation ids are letters, digits, \`_\` and \`-\`, unique, and never \`master\`.

**Limits.** Canvas and variation sizes are whole numbers from 1 to ${MAX_DIMENSION} pixels per side. At most ${limits.components} components in the top-level list, ${limits.children} children per group, ${MAX_TOTAL_COMPONENTS} components in the whole document, groups nested ${MAX_GROUP_DEPTH} deep, ${limits.fonts} fonts, ${limits.variations} variations and ${limits.text} characters per text.

**Validation.** A document is checked as a whole before it is stored or rendered. Unknown fields are errors (a typo such as \`fontsize\` is reported, not ignored), and every problem is listed on its own line as \`path: message\`, e.g. \`components[0].fontSize: expected a number between 1 and 1000, received "big"\`.`
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

// ---------------------------------------------------------------------------
// Reading the zod schemas. zod v4 keeps a schema's structure in `_zod.def`; only the few
// def shapes the design schema uses are read here.

type Schema = z.core.$ZodType

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

const defOf = (schema: Schema): Def => schema._zod.def as unknown as Def
const descriptionOf = (schema: Schema): string | undefined => z.globalRegistry.get(schema)?.description
const checksOf = (schema: Schema): CheckDef[] => (defOf(schema).checks ?? []).map((check) => check._zod.def)
const shapeOf = (schema: Schema): Record<string, Schema> => defOf(schema).shape ?? {}
const unwrapOptional = (schema: Schema): Schema => defOf(schema).innerType ?? schema

/** Shared types, by the name the guide uses for them (identity of the schema object). */
const SHARED_TYPES: ReadonlyArray<readonly [string, Schema]> = [
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
const DOCUMENT_TYPES: ReadonlyArray<readonly [string, Schema]> = [
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
function typeString(schema: Schema, expand = false): string {
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
function describeFields(schema: Schema, context: string): GuideField[] {
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

interface Limits {
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

function readLimits(): Limits {
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
function buildJsonSchema(): Record<string, unknown> {
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

// ---------------------------------------------------------------------------
// Markdown

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ')
const code = (text: string): string => `\`${text}\``
const json = (value: unknown): string => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``

function fieldTable(fields: readonly GuideField[]): string {
  const rows = fields.map((field) => {
    const dflt = field.required ? '**required**' : 'default' in field ? code(JSON.stringify(field.default)) : '—'
    return `| ${code(field.name)} | ${cell(code(field.type))} | ${cell(dflt)} | ${cell(field.description)} |`
  })
  return ['| Field | Type | Default | Description |', '|---|---|---|---|', ...rows].join('\n')
}

function typeSection(name: string, schema: Schema, context = name): string {
  const description = descriptionOf(schema) ?? ''
  const body = defOf(schema).type === 'object' ? fieldTable(describeFields(schema, context)) : `Type: ${code(typeString(schema, true))}`
  return `### ${name}\n\n${description}\n\n${body}`
}

/** Names of the fields every component type shares (same schema object in each). */
function commonFieldNames(): string[] {
  const shapes = Object.values(COMPONENT_SCHEMAS).map((schema) => shapeOf(schema))
  const first = shapes[0] ?? {}
  return Object.keys(first).filter((name) => shapes.every((shape) => shape[name] === first[name]))
}

/** Renders the guide as one Markdown document: overview, document, each type (summary, fields, default `dynamic`, example), shared types, full example. */
export function renderGuideMarkdown(guide: Omit<DesignGuide, 'markdown'>): string {
  const common = new Set(commonFieldNames())
  const firstType = guide.components[0]
  const commonFields = firstType ? firstType.fields.filter((field) => common.has(field.name)) : []
  const parts: string[] = [
    '# Litho design documents (version 2)',
    guide.overview,
    '## Document',
    `${descriptionOf(DesignDocumentSchema) ?? ''} The JSON Schema of the document is \`design-document.schema.json\` (\`jsonSchema\` of \`get_design_guide\`).`,
    fieldTable(describeFields(DesignDocumentSchema, 'document')),
    ...DOCUMENT_TYPES.map(([name, schema]) => typeSection(name, schema)),
    '## Components',
    `Every component is an object with a \`type\`: ${guide.components.map((c) => code(c.type)).join(', ')}. These fields are common to all of them:`,
    fieldTable(commonFields),
  ]
  for (const component of guide.components) {
    const own = component.fields.filter((field) => !common.has(field.name))
    const overridable = OVERRIDABLE_FIELDS[component.type].map(code).join(', ')
    parts.push(
      `### ${component.type}`,
      component.summary,
      `${fieldTable(own)}\n\nPlus the common fields above.`,
      `Default \`dynamic\`: ${component.defaultDynamic.map(code).join(', ')}. Fields a \`dynamic\` list may name: ${overridable}.`,
      json(component.example),
    )
  }
  parts.push(
    '## Shared types',
    ...SHARED_TYPES.map(([name, schema]) => typeSection(name, schema)),
    '## Complete example',
    `A ${guide.example.width}x${guide.example.height} product card with a story variation (patched) and a thumbnail (scaled).`,
    json(guide.example),
  )
  return `${parts.join('\n\n')}\n`
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

let cached: DesignGuide | undefined

/**
 * Returns the design guide (memoised: it is pure). The result is deeply frozen.
 *
 * @example const { overview, components, jsonSchema } = getDesignGuide()
 */
export function getDesignGuide(): DesignGuide {
  if (cached) return cached
  const types = Object.keys(COMPONENT_SCHEMAS) as ComponentType[]
  const guide: Omit<DesignGuide, 'markdown'> = {
    version: 2,
    jsonSchema: buildJsonSchema(),
    overview: overviewText(readLimits()),
    components: types.map((type) => ({
      type,
      summary: SUMMARIES[type],
      fields: describeFields(COMPONENT_SCHEMAS[type], type),
      defaultDynamic: DEFAULT_DYNAMIC[type],
      example: structuredClone(COMPONENT_EXAMPLES[type]),
    })),
    example: structuredClone(DOCUMENT_EXAMPLE),
  }
  cached = deepFreeze({ ...guide, markdown: renderGuideMarkdown(guide) })
  return cached
}

/** Relative paths under `docs/` of the generated design docs. */
export const DESIGN_DOCS_FILES = { markdown: 'design-document.md', jsonSchema: 'design-document.schema.json' } as const

/**
 * The exact contents of the generated docs files (`docs/design-document.md` and
 * `docs/design-document.schema.json`), as `scripts/gen-docs.ts` writes them.
 *
 * @example writeFileSync('docs/design-document.md', renderDesignDocs().markdown)
 */
export function renderDesignDocs(): { markdown: string; jsonSchema: string } {
  const guide = getDesignGuide()
  const header =
    '<!-- Generated from packages/core/src/contracts/schemas/design-document.ts and design/guide.ts by packages/core/scripts/gen-docs.ts. Do not edit: run `npx tsx packages/core/scripts/gen-docs.ts`. -->\n\n'
  return { markdown: header + guide.markdown, jsonSchema: `${JSON.stringify(guide.jsonSchema, null, 2)}\n` }
}
