/**
 * The design guide: everything an author (a person or an AI agent that has never seen Litho)
 * needs to write a valid design document. Field lists, types, defaults, descriptions and the
 * JSON Schema are derived from the zod schemas in `contracts/schemas/design-document.ts`, so the guide, the MCP tool
 * `get_design_guide` and the generated docs can never disagree with what is validated. Only the
 * prose (overview, summaries) and the examples are written here; tests validate the examples.
 *
 * @module design/guide
 */
import {
  BARCODE_SYMBOLOGIES,
  COMPONENT_SCHEMAS,
  DEFAULT_DYNAMIC,
  DesignDocumentSchema,
  MAX_DIMENSION,
  MAX_GROUP_DEPTH,
  MAX_TOTAL_COMPONENTS,
  OVERRIDABLE_FIELDS,
  type ComponentInput,
  type ComponentType,
  type DesignDocumentInput,
} from './schema.js'
import { deepFreeze } from '../_internal/json-values.js'
import { COMPONENT_EXAMPLES, DOCUMENT_EXAMPLE } from './guide-examples.js'
import { DOCUMENT_TYPES, SHARED_TYPES, buildJsonSchema, defOf, describeFields, descriptionOf, readLimits, shapeOf, typeString, type GuideField, type Limits, type Schema } from './guide-schema.js'

export type { GuideField }

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
// Prose: the only hand-written parts besides the examples.

/** The hand-written summary of each component type, shared by the full and the concise guide. */
export const GUIDE_SUMMARIES: Readonly<Record<ComponentType, string>> = {
  text:
    'A block of text that wraps inside its box. `align` and `verticalAlign` place the text in the box; `maxLines` cuts it with "…"; ' +
    '`autoFit: { "min": 24 }` shrinks the font from `fontSize` until the text fits, which is what dynamic text of unknown length needs. ' +
    'In a group with `layout`, `height: "auto"` makes the box hug its lines, so a one-line title lets the components after it move up. ' +
    'Right-to-left scripts (Arabic, Hebrew) are detected automatically.',
  image:
    'An image from an https URL, a `data:image/…` URI or an uploaded asset (`asset:<id>`), drawn into its box: `fit: "cover"` fills the box and crops (keeping `focus` near the centre), ' +
    '`"contain"` fits the whole image inside it, `"fill"` stretches. `radius` rounds the corners. Keep `src` dynamic to swap the picture per render.',
  shape:
    'A rectangle, ellipse or line. Rectangles and ellipses are painted with `fill` (a colour or a gradient) and outlined with `stroke`; ' +
    '`radius` rounds rectangle corners. A line runs horizontally across the middle of its box with the colour and thickness of `stroke`; rotate it for other angles.',
  qrcode:
    'A QR code for `value` (a URL or any text), square, scaled to the smaller side of its box and centred. Keep strong contrast between `color` and `background`; ' +
    'raise `errorCorrection` when the code is printed small or partly covered. `radius` rounds the box, filled with `background`, and insets the code so no module is cut.',
  barcode:
    `A barcode for \`value\`, stretched to its box. \`symbology\` is one of ${BARCODE_SYMBOLOGIES.map((s) => `\`${s}\``).join(', ')}; ` +
    'code128 takes any text, EAN and UPC take digits only (the check digit may be left off). `showText` prints the value under linear barcodes. ' +
    '`radius` rounds the box, filled with `background`, and insets the code so no bar is cut.',
  group:
    'A container. Children are positioned relative to the group\'s top-left corner and painted, in their own order, where the group sits in its parent\'s order. ' +
    'With `layout` the group is a flex box: children are placed in a row or column with `gap`, `align`, `justify` and `padding`, and their `x`/`y` are ignored; ' +
    'a text child with `height: "auto"` takes the height of its lines. ' +
    '`background`, `radius` and `clip` style the group box; hiding a group hides its children.',
}

function overviewText(limits: Limits): string {
  const defaults = (Object.keys(DEFAULT_DYNAMIC) as ComponentType[]).map((type) => `${type}: ${DEFAULT_DYNAMIC[type].join(', ')}`).join('; ')
  return `A Litho design is one JSON document (\`"version": 2\`): a canvas size, a background and a list of positioned components, some of whose fields are dynamic — overridden per render (a name, a price, a photo) without editing the design. Renders are PNG, JPEG, WebP or PDF (one page whose size in points equals the design's size in pixels).

**Coordinates.** Every length is in pixels of the base size (\`width\` × \`height\`). \`x\` and \`y\` are the top-left corner of a component's box (both default to 0) and \`width\` and \`height\` its size (both required on every component). \`rotation\` turns the box clockwise (degrees) around its centre. Children of a \`group\` are positioned relative to the group's top-left corner; a group with \`layout\` places its children itself and ignores their \`x\`/\`y\`.

**Paint order.** \`components\` are painted in order: the first is at the bottom, each later one covers what is below it. A group's children are painted in their own order at the group's place. \`opacity\` (0–1) and \`visible\` apply to the component and everything in it.

**Paint.** Fills and backgrounds take a Paint: a CSS colour string (\`"#1a1a1a"\`, \`"#1a1a1a80"\`, \`"#fff"\`, \`"rgb(0 0 0 / 50%)"\`, \`"rgba(0,0,0,0.5)"\`, \`"hsl(120, 50%, 50%)"\`, \`"rebeccapurple"\`, \`"transparent"\`) or a gradient object — \`{ "type": "linear", "angle": 180, "stops": [{ "offset": 0, "color": "#ffffff" }, { "offset": 1, "color": "#000000" }] }\` (angle as in CSS: 0 bottom → top, 90 left → right, 180 top → bottom) or \`{ "type": "radial", "center": { "x": 0.5, "y": 0.5 }, "stops": [ … ] }\` (centre as fractions of the box). A gradient has ${limits.minStops} to ${limits.maxStops} stops with offsets from 0 to 1. Fields named \`color\`, and the \`background\` of qrcode and barcode, take a colour string only.

**Fonts.** \`fontFamily\` \`"sans-serif"\`, \`"serif"\` and \`"monospace"\` always work with no setup: they are the built-in Inter, Noto Serif and JetBrains Mono, which may also be named directly. Emoji, Arabic and Hebrew characters fall back to built-in fonts automatically; Chinese, Japanese and Korean do too wherever the optional \`@litho/fonts-cjk\` package is installed (the service ships it; without it a render reports a \`missing_glyphs\` warning). For another font add a face to \`fonts\` — \`{ "family": "Brand", "src": "https://example.com/brand-bold.woff2", "weight": 700 }\` — and use \`"fontFamily": "Brand"\`.

**Images.** \`src\` is an https URL, a \`data:image/…\` URI (JPEG, PNG, WebP, GIF, AVIF or SVG) or \`asset:<id>\`, an image uploaded to the account's asset library (\`POST /assets\`, the MCP tool \`upload_asset\`): the server draws it from its own storage, and only the designs of the account that uploaded it may use it. File paths and other schemes are rejected.

**Dynamic fields and overrides.** A component's \`dynamic\` lists the fields a render may override. Omitted, the type's default list applies (${defaults}); \`[]\` fixes the component. A render addresses a field as \`key.field\`: \`?title.text=Summer%20sale\` in a query string, or \`{ "title.text": "Summer sale" }\` or \`{ "title": { "text": "Summer sale" } }\` in a JSON body. Keys are unique in the whole document, so a component inside a group is addressed by its own key. The render config's \`data.flatten\` lists every overridable field with its current value (\`{ "title.text": "Aurora Wireless Headphones", "photo.src": "https://…" }\`); \`data.pure\` is the same, nested by key. Query-string values are converted to the field's type (number, boolean); a value that is invalid for the field (a malformed colour, a word for a number) fails that render with a message naming the field. A bare key, an unknown key or a field not in \`dynamic\` changes nothing and is reported back as a warning.

**Variations.** \`variations\` adds output sizes; the base size is always available as variation \`master\`. A variation without \`components\` scales the whole base layout uniformly to fit its size and centres it. A variation with \`components\` is a set of patches by component key, e.g. \`{ "title": { "y": 1500, "fontSize": 72 } }\`, whose values are in the variation's own pixels; a patch may set any field except \`key\`, \`type\`, \`children\` and \`dynamic\`, and must leave the component valid. Variation ids are letters, digits, \`_\` and \`-\`, unique, and never \`master\`.

**Limits.** Canvas and variation sizes are whole numbers from 1 to ${MAX_DIMENSION} pixels per side. At most ${limits.components} components in the top-level list, ${limits.children} children per group, ${MAX_TOTAL_COMPONENTS} components in the whole document, groups nested ${MAX_GROUP_DEPTH} deep, ${limits.fonts} fonts, ${limits.variations} variations and ${limits.text} characters per text.

**Validation.** A document is checked as a whole before it is stored or rendered. Unknown fields are errors (a typo such as \`fontsize\` is reported, not ignored), and every problem is listed once on its own line as \`path: message\`, e.g. \`components[0].fontSize: expected a number between 1 and 1000, received "big"\`. Problems of components and of variation patches come together in one answer; an unknown key in a patch says which was probably meant (\`variations[0].components.talk-titel: expected the key of a component, received "talk-titel"; did you mean "talk-title"?\`).`
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
      summary: GUIDE_SUMMARIES[type],
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

