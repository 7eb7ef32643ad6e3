/**
 * The CSS of satori elements (internal to the render stages): paints, radii, padding, the box
 * of a component and the style of its text. Pure functions of a component.
 *
 * @module render/element-styles
 */
import type { Component, Paint, TextComponent } from '../design/schema.js'
import type { PreparedAssets } from './build-tree.js'

/** CSS for a paint used as a background. */
export function paintStyle(paint: Paint | undefined): Record<string, string> {
  if (paint === undefined) return {}
  if (typeof paint === 'string') return { backgroundColor: paint }
  const stops = paint.stops.map((s) => `${s.color} ${round(s.offset * 100)}%`).join(', ')
  if (paint.type === 'linear') return { backgroundImage: `linear-gradient(${css(paint.angle % 360)}deg, ${stops})` }
  return { backgroundImage: `radial-gradient(circle farthest-corner at ${round(paint.center.x * 100)}% ${round(paint.center.y * 100)}%, ${stops})` }
}

export const round = (n: number): number => Math.round(n * 1000) / 1000

/**
 * A number for a CSS string. satori's CSS parser reads no exponent: `String(5e-324)` is
 * "5e-324" and `rotate(1e-7deg)` fails the whole layout ("Invalid unit"). Rounded to 3
 * decimals and kept within ±1e6, a number always prints as plain decimals.
 */
export const css = (n: number): number => round(Math.max(-1e6, Math.min(1e6, n)))

export function radiusStyle(radius: Component['radius']): Record<string, number> {
  if (radius === undefined) return {}
  if (typeof radius === 'number') return { borderRadius: radius }
  return {
    borderTopLeftRadius: radius.topLeft,
    borderTopRightRadius: radius.topRight,
    borderBottomRightRadius: radius.bottomRight,
    borderBottomLeftRadius: radius.bottomLeft,
  }
}

/** CSS for padding given as four sides. */
export function paddingStyle(pad: { top: number; right: number; bottom: number; left: number }): Record<string, number> {
  return { paddingTop: pad.top, paddingRight: pad.right, paddingBottom: pad.bottom, paddingLeft: pad.left }
}

/** Padding as four sides. */
export function paddingOf(padding: TextComponent['padding']): { top: number; right: number; bottom: number; left: number } {
  if (padding === undefined) return { top: 0, right: 0, bottom: 0, left: 0 }
  if (typeof padding === 'number') return { top: padding, right: padding, bottom: padding, left: padding }
  return padding
}

/** The box style every component shares: position, size, rotation, opacity, border, radius. */
export function boxStyle(component: Component, inFlow: boolean): Record<string, unknown> {
  return {
    ...(inFlow ? { position: 'relative', flexShrink: 0 } : { position: 'absolute', left: component.x, top: component.y }),
    width: component.width,
    height: component.height,
    display: 'flex',
    boxSizing: 'border-box',
    ...(component.rotation ? { transform: `rotate(${css(component.rotation % 360)}deg)`, transformOrigin: '50% 50%' } : {}),
    ...(component.opacity < 1 ? { opacity: component.opacity } : {}),
    ...(component.border && component.border.width > 0
      ? { border: `${css(component.border.width)}px ${component.border.style} ${component.border.color}` }
      : {}),
    ...radiusStyle(component.radius),
  }
}

/**
 * Inner size of a component's box: its size less borders (and padding for text). A text with
 * `height: "auto"` grows with its lines: its inner height is unbounded (Infinity).
 */
export function innerSize(component: Component): { width: number; height: number } {
  const border = component.border?.width ?? 0
  const pad = component.type === 'text' ? paddingOf(component.padding) : { top: 0, right: 0, bottom: 0, left: 0 }
  return {
    width: Math.max(0, component.width - 2 * border - pad.left - pad.right),
    height: component.height === 'auto' ? Infinity : Math.max(0, component.height - 2 * border - pad.top - pad.bottom),
  }
}

export const RTL_FIRST = /^[^\p{L}]*[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u

/** Text style shared by the render and the measuring pass. */
export function textStyle(component: TextComponent, familyFor: PreparedAssets['familyFor'], fontSize: number): Record<string, unknown> {
  const direction = component.direction === 'auto' ? (RTL_FIRST.test(component.text) ? 'rtl' : 'ltr') : component.direction
  return {
    fontFamily: familyFor(component.fontFamily),
    fontSize,
    fontWeight: component.fontWeight,
    fontStyle: component.fontStyle,
    color: component.color,
    textAlign: component.align,
    lineHeight: component.lineHeight,
    letterSpacing: component.letterSpacing,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'break-word',
    direction,
    ...(component.textTransform !== 'none' ? { textTransform: component.textTransform } : {}),
    ...(component.stroke && component.stroke.width > 0
      ? { WebkitTextStrokeWidth: component.stroke.width, WebkitTextStrokeColor: component.stroke.color }
      : {}),
    ...(component.shadow ? { textShadow: `${css(component.shadow.x)}px ${css(component.shadow.y)}px ${css(component.shadow.blur)}px ${component.shadow.color}` } : {}),
  }
}
