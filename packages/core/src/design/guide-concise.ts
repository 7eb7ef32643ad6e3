/**
 * The concise design guide (what `get_design_guide` serves by default, at most 15 KB) and the
 * other sections of the guide: the JSON Schema, the long examples and the full reference. Every
 * field list is generated from the zod schemas as in `design/guide.ts`, so a field added to the
 * schema appears here too (a test checks each one); only the prose and the small example are
 * written by hand.
 *
 * @module design/guide-concise
 */
import { COMPONENT_SCHEMAS, DEFAULT_DYNAMIC, DesignDocumentSchema, MAX_DIMENSION, MAX_GROUP_DEPTH, MAX_TOTAL_COMPONENTS, OVERRIDABLE_FIELDS, type ComponentType } from './schema.js'
import { COMPONENT_EXAMPLES, DOCUMENT_EXAMPLE } from './guide-examples.js'
import { DOCUMENT_TYPES, SHARED_TYPES, defOf, describeFields, readLimits, shapeOf, typeString, type GuideField, type Schema } from './guide-schema.js'
import { GUIDE_SUMMARIES, getDesignGuide } from './guide.js'

/**
 * The sections of the guide: `guide` (concise, the default), `schema` (JSON Schema), `examples`
 * (long examples), `full` (the complete reference), and one per component type (that type's part
 * of the full reference: every field described, and an example).
 */
export const GUIDE_SECTIONS = ['guide', 'schema', 'examples', 'full', ...(Object.keys(COMPONENT_SCHEMAS) as ComponentType[])] as const
/** One of {@link GUIDE_SECTIONS}. */
export type GuideSection = (typeof GUIDE_SECTIONS)[number]

const code = (text: string): string => `\`${text}\``
const json = (value: unknown): string => `\`\`\`json\n${JSON.stringify(value)}\n\`\`\``

/** One compact line per field: name, type, default (or required) and whether a render may override it. */
function fieldLines(fields: readonly GuideField[], overridable: ReadonlySet<string> = new Set()): string {
  return fields
    .map((field) => {
      const dflt = field.required ? ' **required**' : 'default' in field ? ` = ${code(JSON.stringify(field.default))}` : ''
      return `- ${code(field.name)} ${typeCell(field.type)}${dflt}${overridable.has(field.name) ? ' [overridable]' : ''}`
    })
    .join('\n')
}
const typeCell = (type: string): string => (type.includes('|') || type.includes(' ') ? code(type) : type)

/** Field names every component type shares. */
function commonFieldNames(): string[] {
  const shapes = Object.values(COMPONENT_SCHEMAS).map((schema) => shapeOf(schema))
  const first = shapes[0] ?? {}
  return Object.keys(first).filter((name) => shapes.every((shape) => shape[name] === first[name]))
}

function typeLine(name: string, schema: Schema): string {
  if (defOf(schema).type === 'object') return `### ${name}\n${fieldLines(describeFields(schema, name))}`
  return `### ${name}\n${code(typeString(schema, true))}`
}

const IMAGES =
  'Images come from three places: an https URL, fetched by the server at render time; an `asset:<id>` reference to an image uploaded with `upload_asset`; or a `data:image/…` URI (JPEG, PNG, WebP, GIF, AVIF or SVG) inlined in the document. File paths and other schemes are rejected.'

/** The image summary without its sentence on sources, which the Images paragraph says in full. */
function imageSummary(): string {
  const summary = GUIDE_SUMMARIES.image
  const at = summary.indexOf('drawn into its box')
  return `${at > 0 ? `An image ${summary.slice(at)}` : summary} Sources: see **Images** above.`
}

/** A small complete document, for the guide's worked example (no inlined images, to keep it short). */
const SMALL_EXAMPLE = {
  version: 2,
  width: 1080,
  height: 1080,
  background: '#fff7ed',
  components: [
    { type: 'image', key: 'photo', x: 60, y: 60, width: 960, height: 600, src: 'https://example.com/photo.jpg', radius: 32 },
    { type: 'text', key: 'title', x: 60, y: 700, width: 960, height: 180, text: 'Aurora Wireless Headphones', fontSize: 72, fontWeight: 700, autoFit: { min: 40 }, maxLines: 2 },
    {
      type: 'group',
      key: 'price-tag',
      x: 60,
      y: 920,
      width: 400,
      height: 100,
      background: '#1a1a1a',
      radius: 50,
      layout: { direction: 'row', gap: 16, align: 'center', justify: 'center' },
      children: [{ type: 'text', key: 'price', width: 300, height: 'auto', text: '$129', fontSize: 56, color: '#ffffff', align: 'center' }],
    },
  ],
  variations: [
    { id: 'story', width: 1080, height: 1920, components: { photo: { height: 1100 }, title: { y: 1220 }, 'price-tag': { y: 1500 } } },
    { id: 'thumb', width: 540, height: 540 },
  ],
}

function conciseGuide(): string {
  const limits = readLimits()
  const common = new Set(commonFieldNames())
  const textFields = describeFields(COMPONENT_SCHEMAS.text, 'text')
  const types = Object.keys(COMPONENT_SCHEMAS) as ComponentType[]
  const parts: string[] = [
    '# Litho design documents (version 2): concise guide',
    'More: `get_design_guide` with `section: "schema"` (the JSON Schema), `"examples"` (long examples of every type), `"full"` (every field described) or a type (`"text"`: its fields described, an example); also the MCP resources `litho://design-guide/schema` and `litho://design-guide/examples`.',
    '## Structure',
    `A design is one JSON document: a canvas \`width\` × \`height\` (whole pixels, 1–${MAX_DIMENSION}), a \`background\`, \`components\` painted in order (first at the bottom) and optional \`variations\` (other sizes) and \`fonts\`. Document fields:`,
    fieldLines(describeFields(DesignDocumentSchema, 'document')),
    '**Coordinates.** Lengths are pixels of the base size. `x` and `y` (the top-left corner of the box) default to 0; `width` and `height` are required. `rotation` turns the box clockwise around its centre. Children of a `group` are placed relative to the group; a group with `layout` places its children itself and ignores their `x`/`y`.',
    '**Paint.** A CSS colour (`"#1a1a1a"`, `"#1a1a1a80"`, `"rgb(0 0 0 / 50%)"`, `"transparent"`) or a gradient `{ "type": "linear", "angle": 180, "stops": [{ "offset": 0, "color": "#fff" }, { "offset": 1, "color": "#000" }] }` (or `"radial"` with `center`). Fields named `color`, and `background` of qrcode/barcode, take a colour only.',
    '**Fonts.** `"sans-serif"` (Inter), `"serif"` (Noto Serif) and `"monospace"` (JetBrains Mono) are built in; emoji, Arabic, Hebrew (and CJK where installed) fall back automatically. Other fonts: add `{ "family": "Brand", "src": "https://…/brand.woff2", "weight": 700 }` to `fonts`.',
    `**Images.** ${IMAGES}`,
    `**Dynamic fields.** \`dynamic\` lists the fields a render may override (omitted: the type's default list; \`[]\`: fixed). A render addresses \`key.field\` (\`?title.text=Hi\`, or \`{ "title.text": "Hi" }\` in a JSON body). Keys are unique in the whole document. Unknown keys or fields not in \`dynamic\` are ignored and reported as warnings; a value invalid for its field fails the render.`,
    '**Variations.** The base size is variation `master`. A variation without `components` draws the whole base layout scaled uniformly to fit its size, centred. A variation with `components` is laid out at its own size, unscaled: each patch (by component key, e.g. `{ "title": { "y": 1500, "fontSize": 72 } }`) replaces the fields it names (shallow: an object such as `border` is replaced whole), in the variation\'s pixels, and every component or field it does not mention keeps its base value and position as is (not scaled or moved), so patch everything that must move. A patch may not set `key`, `type`, `children` or `dynamic`. Overrides apply to every variation, but a field a patch sets wins over an override of it.',
    `**Limits.** ${limits.components} top-level components, ${limits.children} children per group, ${MAX_TOTAL_COMPONENTS} in all, groups ${MAX_GROUP_DEPTH} deep, ${limits.fonts} fonts, ${limits.variations} variations, ${limits.text} characters per text, ${limits.minStops}–${limits.maxStops} gradient stops. Unknown fields are errors; every problem comes back as \`path: message\`.`,
    '## Components',
    `Each has a \`type\`: ${types.map(code).join(', ')}. [overridable] marks fields a \`dynamic\` list may name. Fields of every type:`,
    fieldLines(textFields.filter((field) => common.has(field.name)), new Set([...common].filter((name) => types.every((type) => OVERRIDABLE_FIELDS[type].includes(name))))),
  ]
  for (const type of types) {
    const fields = describeFields(COMPONENT_SCHEMAS[type], type).filter((field) => !common.has(field.name))
    parts.push(`### ${type}`, type === 'image' ? imageSummary() : GUIDE_SUMMARIES[type], fieldLines(fields, new Set(OVERRIDABLE_FIELDS[type])), `Default \`dynamic\`: ${DEFAULT_DYNAMIC[type].map(code).join(', ')}.`)
  }
  parts.push('## Shared types', ...[...DOCUMENT_TYPES, ...SHARED_TYPES].map(([name, schema]) => typeLine(name, schema)))
  parts.push(
    '## Patterns',
    '- **Text of unknown length**: set `autoFit: { "min": 24 }` and usually `maxLines`. The font shrinks from `fontSize` (whole pixels, down to `min`) to the largest size at which the text fits the box height, stays within `maxLines` lines and breaks no word. If even `min` does not fit, it renders at `min`: lines beyond `maxLines` are cut with "…" (warning `text_cut`), and text still taller than the box runs past its bottom (warning `text_overflow`). `maxLines` alone never changes the size: it cuts with "…".',
    '- **Stacks that adapt**: a `group` with `layout: { "direction": "column", "gap": 16 }` and text children with `height: "auto"`; a one-line title lets what follows move up.',
    '- **Optional parts**: keep `visible` dynamic (it is by default) and hide with `?badge.visible=false`.',
    '- **Photos**: `fit: "cover"` with `focus` near the subject; keep `src` dynamic to swap it per render.',
    '- **Per-size layouts**: patch `x`, `y`, `width`, `height`, `fontSize` in a variation; leave `components` out for a scaled copy.',
    '## Rendering',
    'Publish the design (`publish_design`), then `get_render_config` gives the render URL `{render_url}/v1/<renderCode>`, the override keys (`data.flatten`) and variation ids. GET `<render>?format=png&variation=story&title.text=Hello` with the render key in the `dma-api-key` header (or query); or POST `<render>?format=webp&quality=90` with the key in the `dma-api-key` header (only there) and a JSON body of overrides, which may carry `variation` too: `{ "title.text": "Hello", "variation": "story" }`. `format` is `png`, `jpeg` (the default), `webp` or `pdf`; `quality` 1–100 (jpeg). A render key (`lk_…`) comes from the console\'s API keys page, `POST /settings/api-keys` (bearer token with `write`) or `litho keys create`; it is not the MCP access token.',
    '## Worked example',
    'Photo, a title that shrinks to fit two lines, a price pill with auto-layout, a patched story size and a scaled thumbnail:',
    json(SMALL_EXAMPLE),
  )
  return `${parts.join('\n\n')}\n`
}

function examples(): string {
  const types = Object.keys(COMPONENT_SCHEMAS) as ComponentType[]
  const parts = ['# Litho design guide: examples', 'One example per component type, then a complete 1080x1080 product card with a patched story variation and a scaled thumbnail. Images are inlined as small data URIs so every example renders offline.']
  for (const type of types) parts.push(`### ${type}`, `\`\`\`json\n${JSON.stringify(COMPONENT_EXAMPLES[type], null, 2)}\n\`\`\``)
  parts.push('## Complete example', `\`\`\`json\n${JSON.stringify(DOCUMENT_EXAMPLE, null, 2)}\n\`\`\``)
  return `${parts.join('\n\n')}\n`
}

/** The `### <type>` part of the full reference, with the fields every type shares appended. */
function typeSection(markdown: string, type: ComponentType): string {
  const start = markdown.indexOf(`\n### ${type}\n`)
  const next = [markdown.indexOf('\n### ', start + 1), markdown.indexOf('\n## ', start + 1)].filter((at) => at !== -1)
  const common = markdown.slice(markdown.indexOf('\n## Components\n'), markdown.indexOf('\n### ', markdown.indexOf('\n## Components\n')))
  if (start === -1) throw new Error(`design guide: no section for ${type}`)
  const own = markdown.slice(start, next.length > 0 ? Math.min(...next) : undefined).trim().replace('Plus the common fields above.', 'Plus the common fields below.')
  return `# Litho design guide: ${type}\n\n${own}\n\n## Common fields\n\n${common.slice(common.indexOf('\n', 1)).trim()}\n`
}

const cache = new Map<GuideSection, string>()

/**
 * The text of one section of the design guide (memoised): `guide` the concise guide (at most
 * 15 KB), `schema` the JSON Schema (one line), `examples` the long examples, `full` the complete
 * reference (the contents of `docs/design-document.md`), a component type that type's part of it.
 *
 * @example getGuideSection('guide').length < 15_000
 */
export function getGuideSection(section: GuideSection = 'guide'): string {
  const hit = cache.get(section)
  if (hit !== undefined) return hit
  const guide = getDesignGuide()
  const text =
    section === 'guide' ? conciseGuide() : section === 'schema' ? JSON.stringify(guide.jsonSchema) : section === 'examples' ? examples() : section === 'full' ? guide.markdown : typeSection(guide.markdown, section)
  cache.set(section, text)
  return text
}
