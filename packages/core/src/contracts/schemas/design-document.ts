/**
 * The v2 DesignDocument as zod v4 schemas: the single source of truth for validation,
 * the JSON Schema, the design guide and the docs. See docs/design-document.md; the fields it
 * names are never renamed or dropped here, only added to. Part of the contracts entry: it
 * loads zod and nothing else.
 *
 * @module contracts/schemas/design-document
 */
import * as z from 'zod'
import { describeReceived, expected } from './common.js'
import { ColorSchema, PaddingSchema, PaintSchema, RadiusSchema, ShadowSchema, StrokeSchema, bool, finite, int, num, oneOf } from './design-values.js'

/** Largest output width or height, in pixels (docs/design-document.md: up to 4096x4096). */
export const MAX_DIMENSION = 4096

/**
 * Deepest nesting of groups. Layout and validation recurse per level, so an unbounded
 * depth would let a document exhaust the stack; real templates
 * nest a handful of levels.
 */
export const MAX_GROUP_DEPTH = 16

/** Most components in a document, counting every level: bounds layout time per render. */
export const MAX_TOTAL_COMPONENTS = 2000

// The value types (colours, gradients, paints, …) live in contracts/schemas/design-values.
export { describeReceived }
export { ColorSchema, LinearGradientSchema, PaintSchema, RadialGradientSchema, RadiusSchema } from './design-values.js'

// ---------------------------------------------------------------------------
// Components

const KEY_RE = /^[A-Za-z0-9_-]+$/

/** Fields every component has. */
const common = {
  key: z
    .string(expected('a component key'))
    .min(1, expected('a non-empty key'))
    .max(64, expected('a key of at most 64 characters'))
    .regex(KEY_RE, expected('a key of letters, digits, "_" and "-" only'))
    .describe('Unique in the document; overrides address the component by it, e.g. "title.text".'),
  name: z.string(expected('a string')).max(200).optional().describe('A label for people; not rendered.'),
  x: finite().default(0).describe('Left edge in pixels of the base size (relative to the parent group).'),
  y: finite().default(0).describe('Top edge in pixels of the base size (relative to the parent group).'),
  width: num(0, 100000, 'a width between 0 and 100000 pixels').describe('Width in pixels of the base size.'),
  height: num(0, 100000, 'a height between 0 and 100000 pixels').describe('Height in pixels of the base size.'),
  rotation: finite('an angle in degrees').default(0).describe('Clockwise rotation in degrees around the centre of the box.'),
  opacity: num(0, 1).default(1).describe('0 (invisible) to 1 (opaque).'),
  visible: bool().default(true).describe('false hides the component; a hidden child of an auto-layout group takes no space.'),
  dynamic: z
    .array(z.string(expected('a field name')), expected('an array of field names'))
    .optional()
    .describe('Fields that renders may override. Omitted: the type\'s default list (see each type).'),
  border: StrokeSchema.optional().describe('A border drawn inside the box.'),
  radius: RadiusSchema.optional(),
}

/** A block of text that wraps inside its box. */
export const TextComponentSchema = z
  .strictObject({
    type: z.literal('text'),
    ...common,
    height: z
      .union([num(0, 100000, 'a height between 0 and 100000 pixels, or "auto"'), z.literal('auto')], expected('a height between 0 and 100000 pixels, or "auto"'))
      .describe('Height in pixels of the base size; "auto" (in an auto-layout group only) hugs the lines of the text.'),
    text: z.string(expected('a string')).max(10000, expected('at most 10000 characters')).default('').describe('The text. "\\n" starts a new line.'),
    fontFamily: z
      .string(expected('a font family name'))
      .min(1)
      .max(200)
      .default('sans-serif')
      .describe('"sans-serif", "serif", "monospace", a built-in family (Inter, Noto Serif, JetBrains Mono) or a family from fonts[].'),
    fontSize: num(1, 1000).default(32).describe('Font size in pixels.'),
    fontWeight: z
      .union(
        [
          int(100, 900, 'a font weight 100-900'),
          z.enum(['normal', 'bold']).transform((v) => (v === 'bold' ? 700 : 400)),
        ],
        expected('a font weight: 100, 200 … 900, "normal" or "bold"'),
      )
      .default(400)
      .describe('100 to 900 (400 regular, 700 bold), or "normal" / "bold".'),
    fontStyle: oneOf(['normal', 'italic'] as const).default('normal').describe('Upright or italic.'),
    color: ColorSchema.default('#000000').describe('Text colour.'),
    align: oneOf(['left', 'center', 'right', 'justify'] as const).default('left').describe('Horizontal alignment.'),
    verticalAlign: oneOf(['top', 'middle', 'bottom'] as const).default('top').describe('Vertical position of the text block inside the box.'),
    lineHeight: num(0.5, 5, 'a line height between 0.5 and 5 (a multiple of the font size)').default(1.2).describe('Line height as a multiple of the font size.'),
    letterSpacing: num(-100, 1000).default(0).describe('Extra space between letters in pixels (may be negative).'),
    maxLines: int(1, 1000).optional().describe('At most this many lines; the last visible line ends with "…" when text is cut.'),
    autoFit: z
      .object({
        min: num(1, 1000).default(12).describe('Never shrink below this font size.'),
      })
      .optional()
      .describe('Shrink the font (from fontSize down to min) to the largest size at which the text fits the box.'),
    textTransform: oneOf(['none', 'uppercase', 'lowercase', 'capitalize'] as const).default('none').describe('Changes letter case when drawing; the text itself is unchanged.'),
    direction: oneOf(['auto', 'ltr', 'rtl'] as const).default('auto').describe('"auto" picks right-to-left for text that starts with Arabic or Hebrew.'),
    stroke: StrokeSchema.omit({ style: true }).optional().describe('An outline around each glyph.'),
    shadow: ShadowSchema.optional().describe('A shadow behind the glyphs.'),
    background: PaintSchema.optional().describe('Fills the box behind the text.'),
    padding: PaddingSchema.optional().describe('Space between the box edge (and its background) and the text.'),
  })
  .describe('Text that wraps inside its box.')

/** A raster (or SVG) image from an https URL, a data URI or an uploaded asset (`asset:<id>`). */
export const ImageComponentSchema = z
  .strictObject({
    type: z.literal('image'),
    ...common,
    src: z
      .string(expected('an https URL, a data URI or an asset:<id> reference'))
      .max(10_000_000, expected('a source of at most 10 MB'))
      .refine((v) => /^(https?:\/\/|data:image\/)/i.test(v) || /^asset:[A-Za-z0-9_-]{1,64}$/.test(v), expected('an https URL, a data:image/… URI or asset:<id> (an uploaded asset)'))
      .optional()
      .describe('https URL or data:image/… URI of a JPEG, PNG, WebP, GIF, AVIF or SVG image (plain http only where the server allows it), or asset:<id>, an image uploaded to the account\'s asset library. Omitted: nothing is drawn.'),
    fit: oneOf(['cover', 'contain', 'fill'] as const).default('cover').describe('cover crops to fill the box; contain fits inside it; fill stretches.'),
    focus: z
      .object({ x: num(0, 1), y: num(0, 1) })
      .default({ x: 0.5, y: 0.5 })
      .describe('With fit "cover": the point of the image (fractions, 0..1) kept closest to the centre of the crop.'),
  })
  .describe('An image.')

/** A rectangle, ellipse or line. */
export const ShapeComponentSchema = z
  .strictObject({
    type: z.literal('shape'),
    ...common,
    shape: oneOf(['rectangle', 'ellipse', 'line'] as const).default('rectangle').describe('A line runs across the middle of its box, left to right; rotate it for other angles.'),
    fill: PaintSchema.optional().describe('Fill paint. Omitted: no fill.'),
    stroke: StrokeSchema.optional().describe('Outline (for a line: its colour and thickness).'),
  })
  .describe('A rectangle, ellipse or line.')

/** A QR code, drawn as vector squares. */
export const QrCodeComponentSchema = z
  .strictObject({
    type: z.literal('qrcode'),
    ...common,
    value: z.string(expected('a string')).min(1, expected('a non-empty value')).max(2900, expected('at most 2900 characters')).describe('The encoded text or URL.'),
    color: ColorSchema.default('#000000').describe('Colour of the dark modules or bars.'),
    background: ColorSchema.default('#ffffff').describe('Colour behind the code ("transparent" for none).'),
    errorCorrection: oneOf(['L', 'M', 'Q', 'H'] as const).default('M').describe('Error correction level: L 7 %, M 15 %, Q 25 %, H 30 %.'),
    margin: int(0, 16).default(1).describe('Quiet zone around the code, in modules.'),
  })
  .describe('A QR code, square, scaled to the smaller side of its box and centred.')

/** The barcode symbologies Litho draws. */
export const BARCODE_SYMBOLOGIES = ['code128', 'ean13', 'ean8', 'upca', 'upce', 'code39', 'itf14', 'datamatrix', 'pdf417'] as const

/** A barcode, drawn as vectors with bwip-js. */
export const BarcodeComponentSchema = z
  .strictObject({
    type: z.literal('barcode'),
    ...common,
    value: z.string(expected('a string')).min(1, expected('a non-empty value')).max(2000).describe('The encoded value; EAN/UPC need digits only (check digit optional).'),
    symbology: oneOf(BARCODE_SYMBOLOGIES).default('code128').describe('The barcode standard.'),
    color: ColorSchema.default('#000000').describe('Colour of the dark modules or bars.'),
    background: ColorSchema.default('#ffffff').describe('Colour behind the code ("transparent" for none).'),
    showText: bool().default(true).describe('Print the human-readable value under linear barcodes.'),
  })
  .describe('A barcode stretched to its box.')

/** Flex auto-layout of a group's children. */
export const LayoutSchema = z
  .object({
    direction: oneOf(['row', 'column'] as const).default('row'),
    gap: num(0, 10000).default(0).describe('Space between children in pixels.'),
    align: oneOf(['start', 'center', 'end', 'stretch'] as const).default('start').describe('Cross-axis alignment.'),
    justify: oneOf(['start', 'center', 'end', 'space-between', 'space-around', 'space-evenly'] as const).default('start').describe('Main-axis distribution.'),
    padding: PaddingSchema.optional(),
    wrap: bool().default(false).describe('Wrap children onto new lines when they do not fit.'),
  })
  .describe('Flex auto-layout: children are placed in order along the direction; their x and y are ignored.')

/** The input type of a component (before defaults are applied). */
export type ComponentInput =
  | z.input<typeof TextComponentSchema>
  | z.input<typeof ImageComponentSchema>
  | z.input<typeof ShapeComponentSchema>
  | z.input<typeof QrCodeComponentSchema>
  | z.input<typeof BarcodeComponentSchema>
  | (Omit<z.input<typeof GroupBase>, 'children'> & { children?: ComponentInput[] })

const GroupBase = z.strictObject({
  type: z.literal('group'),
  ...common,
  layout: LayoutSchema.optional(),
  background: PaintSchema.optional().describe('Fills the group box.'),
  clip: bool().default(false).describe('Clip children to the group box.'),
})

/** A group of components positioned relative to it, optionally with flex auto-layout. */
export const GroupComponentSchema = GroupBase.extend({
  get children(): z.ZodDefault<z.ZodArray<typeof ComponentSchema>> {
    return z.array(ComponentSchema, expected('an array of components')).max(500).default([])
  },
}).describe('A group of components positioned relative to the group.')

const COMPONENT_TYPES = ['text', 'image', 'shape', 'qrcode', 'barcode', 'group'] as const

/** Any component, discriminated by `type`. */
export const ComponentSchema: z.ZodDiscriminatedUnion<
  [
    typeof TextComponentSchema,
    typeof ImageComponentSchema,
    typeof ShapeComponentSchema,
    typeof QrCodeComponentSchema,
    typeof BarcodeComponentSchema,
    typeof GroupComponentSchema,
  ]
> = z.discriminatedUnion(
  'type',
  [TextComponentSchema, ImageComponentSchema, ShapeComponentSchema, QrCodeComponentSchema, BarcodeComponentSchema, GroupComponentSchema],
  {
    error: (issue) =>
      `expected "type" to be one of ${COMPONENT_TYPES.join(', ')}, received ${describeReceived((issue.input as { type?: unknown } | undefined)?.type)}`,
  },
)

/** A font face loaded from a URL (https or data URI) for use as `fontFamily`. */
export const FontFaceSchema = z
  .object({
    family: z.string(expected('a family name')).min(1).max(100).describe('The name to use in fontFamily.'),
    src: z
      .string(expected('an https URL or a data URI'))
      .refine((v) => /^(https?:\/\/|data:)/i.test(v), expected('an https URL or a data: URI'))
      .describe('TTF, OTF, WOFF or WOFF2 file.'),
    weight: int(100, 900).default(400),
    style: oneOf(['normal', 'italic'] as const).default('normal'),
  })
  .describe('An extra font face.')

/** An extra output size. */
export const VariationSchema = z
  .object({
    id: z
      .string(expected('a variation id'))
      .min(1)
      .max(64)
      .regex(KEY_RE, expected('an id of letters, digits, "_" and "-" only'))
      .refine((v) => v !== 'master', expected('an id other than "master" (the base size)')),
    name: z.string(expected('a string')).max(200).optional(),
    width: int(1, MAX_DIMENSION, `a whole number of pixels between 1 and ${MAX_DIMENSION}`),
    height: int(1, MAX_DIMENSION, `a whole number of pixels between 1 and ${MAX_DIMENSION}`),
    components: z
      .record(z.string(), z.record(z.string(), z.unknown(), expected('an object of field values')), expected('an object of patches by component key'))
      .optional()
      .describe('Patches by component key, in this variation\'s pixels. Omitted: the base layout is scaled uniformly to fit and centred.'),
  })
  .describe('An extra size of the design.')

/** The v2 design document. */
export const DesignDocumentSchema = z
  .strictObject({
    version: z.literal(2, expected('version 2')),
    name: z.string(expected('a string')).max(200).optional().describe('A label for people.'),
    width: int(1, MAX_DIMENSION, `a whole number of pixels between 1 and ${MAX_DIMENSION}`).describe('Base width in pixels.'),
    height: int(1, MAX_DIMENSION, `a whole number of pixels between 1 and ${MAX_DIMENSION}`).describe('Base height in pixels.'),
    background: PaintSchema.optional().describe('Canvas paint. Omitted: transparent (white in JPEG).'),
    fonts: z.array(FontFaceSchema, expected('an array of font faces')).max(20).default([]),
    components: z.array(ComponentSchema, expected('an array of components')).max(1000).default([]).describe('Painted in order: the first is at the bottom.'),
    variations: z.array(VariationSchema, expected('an array of variations')).max(50).default([]),
  })
  .describe('A Litho design document (version 2).')

/** A design document as written (defaults not yet applied). */
export type DesignDocumentInput = z.input<typeof DesignDocumentSchema>
/** A validated design document with every default applied. */
export type DesignDocument = z.output<typeof DesignDocumentSchema>
/** Any validated component. */
export type Component = z.output<typeof ComponentSchema>
/** The component type names. */
export type ComponentType = Component['type']
/** A validated text component. */
export type TextComponent = z.output<typeof TextComponentSchema>
/** A validated image component. */
export type ImageComponent = z.output<typeof ImageComponentSchema>
/** A validated shape component. */
export type ShapeComponent = z.output<typeof ShapeComponentSchema>
/** A validated QR code component. */
export type QrCodeComponent = z.output<typeof QrCodeComponentSchema>
/** A validated barcode component. */
export type BarcodeComponent = z.output<typeof BarcodeComponentSchema>
/** A validated group component. */
export type GroupComponent = z.output<typeof GroupComponentSchema>
/** A paint: a colour string or a gradient. */
export type Paint = z.output<typeof PaintSchema>
/** A validated variation. */
export type Variation = z.output<typeof VariationSchema>

/** Schemas by component type. */
export const COMPONENT_SCHEMAS = {
  text: TextComponentSchema,
  image: ImageComponentSchema,
  shape: ShapeComponentSchema,
  qrcode: QrCodeComponentSchema,
  barcode: BarcodeComponentSchema,
  group: GroupComponentSchema,
} as const

/** The `dynamic` list each type has when a component does not set one (docs/design-document.md). */
export const DEFAULT_DYNAMIC: Readonly<Record<ComponentType, readonly string[]>> = {
  text: ['text', 'color', 'visible'],
  image: ['src', 'visible'],
  shape: ['fill', 'visible'],
  qrcode: ['value', 'visible'],
  barcode: ['value', 'visible'],
  group: ['visible'],
}

// Identity and structure are never overridable: a render cannot rename, retype or restructure a design.
const NOT_OVERRIDABLE = new Set(['key', 'type', 'dynamic', 'children', 'name'])

/** Field names that a component of each type may list in `dynamic`. */
export const OVERRIDABLE_FIELDS: Readonly<Record<ComponentType, readonly string[]>> = Object.fromEntries(
  COMPONENT_TYPES.map((type) => [type, Object.keys(COMPONENT_SCHEMAS[type].shape).filter((f) => !NOT_OVERRIDABLE.has(f))]),
) as unknown as Record<ComponentType, readonly string[]>
