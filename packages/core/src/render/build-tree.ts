/**
 * Builds satori's element tree from a resolved document and its prepared assets (fonts,
 * images, codes, fitted font sizes). Pure: every asset is prepared before this runs.
 *
 * @module render/build-tree
 */
import type {
  BarcodeComponent,
  Component,
  GroupComponent,
  ImageComponent,
  Paint,
  QrCodeComponent,
  ShapeComponent,
  TextComponent,
} from '../design/schema.js'
import type { PreparedImage } from './images/index.js'
import type { VectorCode } from './codes.js'
import { boxStyle, css, innerSize, paddingOf, paddingStyle, paintStyle, radiusStyle, textStyle } from './element-styles.js'

export { innerSize, paddingOf, paintStyle, textStyle }

/** A satori element: the shape of a React element, without React. */
export interface SatoriElement {
  type: string
  key?: string
  props: { style?: Record<string, unknown>; children?: SatoriElement[] | SatoriElement | string; [prop: string]: unknown }
}

/** Everything the tree needs that had to be computed or fetched first. */
export interface PreparedAssets {
  /** satori `fontFamily` for a component's `fontFamily`. */
  familyFor(fontFamily: string): string
  /** Prepared image by component key. */
  images: ReadonlyMap<string, PreparedImage>
  /** Vector code (QR or barcode) by component key, as a data URI plus natural size. */
  codes: ReadonlyMap<string, VectorCode & { uri: string }>
  /** Font size chosen by autoFit, by component key. */
  fittedSizes: ReadonlyMap<string, number>
}

/** Layout of the output canvas. */
export interface Stage {
  width: number
  height: number
  /** Size of the document's own coordinate space. */
  layoutWidth: number
  layoutHeight: number
  scale: number
  offsetX: number
  offsetY: number
  background: Paint | undefined
}

/** The key satori reports (onNodeDetected) for the text node of a text component. */
export const textNodeKey = (key: string): string => `text:${key}`

/**
 * The key of the hidden, unclamped twin of a text with `maxLines` (and no autoFit): laid
 * out in the same pass but not painted, it tells whether the clamp cut the text, at half
 * the cost of a separate measuring pass.
 */
export const twinNodeKey = (key: string): string => `twin:${key}`

const JUSTIFY = { top: 'flex-start', middle: 'center', bottom: 'flex-end' } as const

function textElement(component: TextComponent, assets: PreparedAssets, inFlow: boolean): SatoriElement {
  const pad = paddingOf(component.padding)
  const fontSize = assets.fittedSizes.get(component.key) ?? component.fontSize
  return {
    type: 'div',
    key: component.key,
    props: {
      style: {
        ...boxStyle(component, inFlow),
        flexDirection: 'column',
        justifyContent: JUSTIFY[component.verticalAlign],
        ...paddingStyle(pad),
        ...paintStyle(component.background),
      },
      children: [
        {
          type: 'div',
          key: textNodeKey(component.key),
          props: {
            style: {
              ...textStyle(component, assets.familyFor, fontSize),
              width: '100%',
              flexShrink: 0,
              ...(component.maxLines ? { lineClamp: component.maxLines } : {}),
            },
            children: component.text,
          },
        },
        ...(component.maxLines && !component.autoFit
          ? [
              {
                type: 'div',
                key: twinNodeKey(component.key),
                props: {
                  style: {
                    ...textStyle(component, assets.familyFor, fontSize),
                    position: 'absolute',
                    left: pad.left,
                    top: pad.top,
                    width: innerSize(component).width,
                    visibility: 'hidden',
                  },
                  children: component.text,
                },
              },
            ]
          : []),
      ],
    },
  }
}

/**
 * Images are drawn as the background of their (rounded) box rather than as an `<img>`
 * inside `overflow: hidden`: satori then fills the box's path with an image pattern
 * instead of nesting two clip-paths, which resvg draws in 31 ms instead of 48 ms for the
 * reference card's photo. The image is already cropped and sized to the box, so the
 * background is drawn exactly once at 100 %.
 */
function imageElement(component: ImageComponent, assets: PreparedAssets, inFlow: boolean): SatoriElement {
  const prepared = assets.images.get(component.key)
  const background = (width: number, height: number): Record<string, unknown> =>
    prepared
      ? {
          backgroundImage: `url(${prepared.dataUri})`,
          backgroundSize: `${css(width)}px ${css(height)}px`,
          // The image exactly fills its box, so repeats never show; with no-repeat satori
          // would make the pattern tile twice as wide and tall (4x the pixels for resvg).
          backgroundRepeat: 'repeat',
          backgroundClip: 'padding-box',
        }
      : {}
  if (prepared && component.fit === 'contain') {
    // The picture is smaller than the box: centre it, with the corners rounded on itself.
    return {
      type: 'div',
      key: component.key,
      props: {
        style: { ...boxStyle(component, inFlow), alignItems: 'center', justifyContent: 'center' },
        children: [
          {
            type: 'div',
            props: { style: { width: prepared.width, height: prepared.height, flexShrink: 0, ...radiusStyle(component.radius), ...background(prepared.width, prepared.height) } },
          },
        ],
      },
    }
  }
  return {
    type: 'div',
    key: component.key,
    props: { style: { ...boxStyle(component, inFlow), ...(prepared ? background(prepared.width, prepared.height) : {}) } },
  }
}

function shapeElement(component: ShapeComponent, inFlow: boolean): SatoriElement {
  const base = boxStyle(component, inFlow)
  if (component.shape === 'line') {
    const stroke = component.stroke ?? { color: typeof component.fill === 'string' ? component.fill : '#000000', width: 1, style: 'solid' as const }
    return {
      type: 'div',
      key: component.key,
      props: {
        style: base,
        children: [
          {
            type: 'div',
            props: {
              style: {
                position: 'absolute',
                left: 0,
                top: (component.height - stroke.width) / 2,
                width: component.width,
                height: 0,
                borderTop: `${css(stroke.width)}px ${stroke.style} ${stroke.color}`,
              },
            },
          },
        ],
      },
    }
  }
  return {
    type: 'div',
    key: component.key,
    props: {
      style: {
        ...base,
        ...paintStyle(component.fill),
        ...(component.stroke && component.stroke.width > 0
          ? { border: `${css(component.stroke.width)}px ${component.stroke.style} ${component.stroke.color}` }
          : {}),
        ...(component.shape === 'ellipse' ? { borderRadius: '50%' } : {}),
      },
    },
  }
}

/**
 * A QR code or barcode. With `radius`, the box itself is filled with the code's background and
 * its corners rounded (clipping), and the code is inset by how far the largest corner cuts in
 * along the diagonal (r × (1 − 1/√2)), so rounding never eats a finder pattern or a bar.
 */
function codeElement(component: QrCodeComponent | BarcodeComponent, assets: PreparedAssets, inFlow: boolean): SatoriElement {
  const code = assets.codes.get(component.key)
  const box = innerSize(component)
  // As CSS draws it: no corner rounds more than half the box's shorter side.
  const corner = Math.min(largestRadius(component.radius), Math.min(component.width, component.height) / 2)
  const inset = corner > 0 ? Math.ceil(corner * (1 - Math.SQRT1_2)) : 0
  const inner = { width: Math.max(0, box.width - 2 * inset), height: Math.max(0, box.height - 2 * inset) }
  let width = inner.width
  let height = inner.height
  if (code && (component.type === 'qrcode' || code.width / code.height !== inner.width / inner.height)) {
    // Keep the code's own aspect ratio (QR, 2D codes), centred in the box.
    const scale = Math.min(inner.width / code.width, inner.height / code.height)
    width = code.width * scale
    height = code.height * scale
  }
  return {
    type: 'div',
    key: component.key,
    props: {
      style: { ...boxStyle(component, inFlow), alignItems: 'center', justifyContent: 'center', ...(corner > 0 ? { backgroundColor: component.background, overflow: 'hidden' } : {}) },
      children: code && width > 0 && height > 0 ? [{ type: 'img', props: { src: code.uri, width, height, style: { width, height, flexShrink: 0 } } }] : [],
    },
  }
}

/** The largest corner of a `radius` (a number, or one per corner); 0 when there is none. */
function largestRadius(radius: Component['radius']): number {
  if (radius === undefined) return 0
  if (typeof radius === 'number') return radius
  return Math.max(radius.topLeft, radius.topRight, radius.bottomRight, radius.bottomLeft)
}

const ALIGN = { start: 'flex-start', center: 'center', end: 'flex-end', stretch: 'stretch' } as const
const JUSTIFY_CONTENT = {
  start: 'flex-start',
  center: 'center',
  end: 'flex-end',
  'space-between': 'space-between',
  'space-around': 'space-around',
  'space-evenly': 'space-evenly',
} as const

/**
 * Where a component list sits on the canvas, when that is known before layout: the canvas
 * position of the list's origin (through unrotated, absolutely placed ancestors), the
 * stage's scale, and the canvas size. `undefined` inside auto-layout or rotated groups.
 */
interface Frame { x: number; y: number; scale: number; width: number; height: number }

/**
 * True when a component that paints only inside its own box (an image, a code, a clipping
 * group) lies wholly outside the canvas, rotated or not: it would paint nothing. resvg
 * 2.6.2 aborts the whole process (an uncatchable Rust panic) on a clipped image that is
 * transformed entirely outside the canvas (thx/resvg-js#413), so such components are
 * left out of the tree; leaving them out changes no pixel.
 */
function offCanvas(component: Component, frame: Frame | undefined): boolean {
  if (!frame) return false
  const clipped = component.type === 'image' || component.type === 'qrcode' || component.type === 'barcode' || (component.type === 'group' && component.clip)
  if (!clipped) return false
  // The circle around the box contains it at any rotation about its centre.
  const cx = frame.x + (component.x + component.width / 2) * frame.scale
  const cy = frame.y + (component.y + component.height / 2) * frame.scale
  const r = (Math.hypot(component.width, component.height) / 2) * frame.scale + 1
  return cx + r < 0 || cy + r < 0 || cx - r > frame.width || cy - r > frame.height
}

/** The frame of a group's children: known only for an unrotated group without auto-layout. */
function childFrame(component: GroupComponent, frame: Frame | undefined): Frame | undefined {
  if (!frame || component.layout || component.rotation % 360 !== 0) return undefined
  // Absolute children are placed from the padding edge, inside the border.
  const border = component.border?.width ?? 0
  return { ...frame, x: frame.x + (component.x + border) * frame.scale, y: frame.y + (component.y + border) * frame.scale }
}

function groupElement(component: GroupComponent, assets: PreparedAssets, inFlow: boolean, frame?: Frame): SatoriElement {
  const layout = component.layout
  const pad = layout ? paddingOf(layout.padding) : undefined
  return {
    type: 'div',
    key: component.key,
    props: {
      style: {
        ...boxStyle(component, inFlow),
        ...paintStyle(component.background),
        ...(component.clip ? { overflow: 'hidden' } : {}),
        ...(layout && pad
          ? {
              flexDirection: layout.direction,
              gap: layout.gap,
              alignItems: ALIGN[layout.align],
              justifyContent: JUSTIFY_CONTENT[layout.justify],
              flexWrap: layout.wrap ? 'wrap' : 'nowrap',
              ...paddingStyle(pad),
            }
          : {}),
      },
      children: componentElements(component.children, assets, layout !== undefined, inFlow ? undefined : childFrame(component, frame)),
    },
  }
}

/** Elements for visible components, in paint order. Children of an auto-layout group are in flow. */
export function componentElements(components: readonly Component[], assets: PreparedAssets, inFlow = false, frame?: Frame): SatoriElement[] {
  const out: SatoriElement[] = []
  for (const component of components) {
    if (!component.visible) continue
    if (!inFlow && offCanvas(component, frame)) continue
    switch (component.type) {
      case 'text':
        out.push(textElement(component, assets, inFlow))
        break
      case 'image':
        out.push(imageElement(component, assets, inFlow))
        break
      case 'shape':
        out.push(shapeElement(component, inFlow))
        break
      case 'qrcode':
      case 'barcode':
        out.push(codeElement(component, assets, inFlow))
        break
      case 'group':
        out.push(groupElement(component, assets, inFlow, frame))
        break
    }
  }
  return out
}

/** The whole tree: the canvas, and the document's layout (scaled and centred for variations without patches). */
export function buildTree(components: readonly Component[], stage: Stage, assets: PreparedAssets): SatoriElement {
  const children = componentElements(components, assets, false, { x: stage.offsetX, y: stage.offsetY, scale: stage.scale, width: stage.width, height: stage.height })
  const scaled = stage.scale !== 1 || stage.offsetX !== 0 || stage.offsetY !== 0
  return {
    type: 'div',
    props: {
      // No overflow: hidden here: the canvas clips anyway, and satori would add a clip and a
      // mask to every element (~20 ms of resvg time on a 1080x1080 card).
      style: { display: 'flex', position: 'relative', width: stage.width, height: stage.height, ...paintStyle(stage.background) },
      children: scaled
        ? [
            {
              type: 'div',
              props: {
                style: {
                  display: 'flex',
                  position: 'absolute',
                  left: stage.offsetX,
                  top: stage.offsetY,
                  width: stage.layoutWidth,
                  height: stage.layoutHeight,
                  transform: `scale(${css(stage.scale)})`,
                  transformOrigin: '0 0',
                },
                children,
              },
            },
          ]
        : children,
    },
  }
}
