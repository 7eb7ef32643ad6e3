/**
 * The value types of the design document (colours, gradients, paints, radii, strokes, shadows,
 * padding) and the schema helpers whose failures all read "expected …, received …". The
 * components and the document (design/schema) are built from these.
 *
 * @module contracts/schemas/design-values
 */
import * as z from 'zod'
import { describeReceived, expected } from './common.js'
import { isCssColor } from '../../design/color.js'

export function num(min: number, max: number, what = `a number between ${min} and ${max}`) {
  return z.number(expected(what)).min(min, expected(what)).max(max, expected(what))
}
export function int(min: number, max: number, what = `a whole number between ${min} and ${max}`) {
  return z.number(expected(what)).int(expected(what)).min(min, expected(what)).max(max, expected(what))
}
export const finite = (what = 'a number') => z.number(expected(what)).finite(expected(what))
export const bool = () => z.boolean(expected('true or false'))
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, expected(`one of ${values.join(', ')}`))
}

/** A CSS colour string: hex, rgb(a), hsl(a), a named colour or `transparent`. */
export const ColorSchema = z
  .string(expected('a CSS colour such as "#1a1a1a"'))
  .refine(isCssColor, expected('a CSS colour such as "#1a1a1a", "rgb(0 0 0 / 50%)" or "transparent"'))
  .describe('A CSS colour: "#rgb", "#rgba", "#rrggbb", "#rrggbbaa", "rgb(…)", "hsl(…)", a named colour or "transparent".')

export const GradientStopSchema = z
  .object({
    offset: num(0, 1).describe('Position along the gradient, 0 (start) to 1 (end).'),
    color: ColorSchema,
  })
  .describe('One colour stop of a gradient.')

export const stops = z
  .array(GradientStopSchema, expected('an array of gradient stops'))
  .min(2, expected('at least 2 gradient stops'))
  .max(16, expected('at most 16 gradient stops'))

/** A linear gradient paint. */
export const LinearGradientSchema = z
  .strictObject({
    type: z.literal('linear'),
    angle: finite('an angle in degrees')
      .default(180)
      .describe('Direction in degrees, as in CSS: 0 goes bottom → top, 90 left → right, 180 top → bottom (default).'),
    stops,
  })
  .describe('A linear gradient.')

/** A radial gradient paint. */
export const RadialGradientSchema = z
  .strictObject({
    type: z.literal('radial'),
    center: z
      .object({ x: num(0, 1), y: num(0, 1) })
      .default({ x: 0.5, y: 0.5 })
      .describe('Centre of the gradient as fractions of the box (default the middle).'),
    stops,
  })
  .describe('A radial gradient (a circle growing from the centre to the farthest corner).')

export const GradientSchema = z.discriminatedUnion('type', [LinearGradientSchema, RadialGradientSchema], {
  error: (issue) =>
    `expected a gradient with "type" "linear" or "radial", received ${describeReceived((issue.input as { type?: unknown } | undefined)?.type)}`,
})

/** A Paint: a CSS colour string or a gradient object. */
export const PaintSchema = z
  .union([ColorSchema, GradientSchema], expected('a CSS colour string or a gradient object'))
  .describe('A paint: a CSS colour string, or a gradient object { "type": "linear" | "radial", … }.')

/** Corner radius: one number for every corner, or one per corner. */
export const RadiusSchema = z
  .union(
    [
      num(0, 100000, 'a radius of 0 or more pixels'),
      z.object({
        topLeft: num(0, 100000).default(0),
        topRight: num(0, 100000).default(0),
        bottomRight: num(0, 100000).default(0),
        bottomLeft: num(0, 100000).default(0),
      }),
    ],
    expected('a radius in pixels or { topLeft, topRight, bottomRight, bottomLeft }'),
  )
  .describe('Corner radius in pixels: one number, or { topLeft, topRight, bottomRight, bottomLeft }.')

export const StrokeSchema = z
  .object({
    color: ColorSchema.default('#000000').describe('Line colour.'),
    width: num(0, 1000, 'a stroke width between 0 and 1000').default(1).describe('Thickness in pixels.'),
    style: oneOf(['solid', 'dashed', 'dotted'] as const).default('solid').describe('Line style.'),
  })
  .describe('An outline: colour, width in pixels and style.')

export const ShadowSchema = z
  .object({
    x: finite().default(0).describe('Horizontal offset in pixels.'),
    y: finite().default(2).describe('Vertical offset in pixels.'),
    blur: num(0, 500).default(4).describe('Blur radius in pixels.'),
    color: ColorSchema.default('rgba(0,0,0,0.5)'),
  })
  .describe('A drop shadow.')

export const PaddingSchema = z
  .union(
    [
      num(0, 10000, 'a padding of 0 or more pixels'),
      z.object({
        top: num(0, 10000).default(0),
        right: num(0, 10000).default(0),
        bottom: num(0, 10000).default(0),
        left: num(0, 10000).default(0),
      }),
    ],
    expected('a padding in pixels or { top, right, bottom, left }'),
  )
  .describe('Inner spacing in pixels: one number, or { top, right, bottom, left }.')
