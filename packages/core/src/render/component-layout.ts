/**
 * Where each component of a render landed: the boxes the layout engine computed (satori's
 * `onNodeDetected`), so components placed by auto-layout groups are where they were drawn, not
 * where their `x`/`y` would put them. In pixels of the rendered image (a variation scaled from
 * the base layout included), before rotation (the children of a rotated group in the group's
 * frame before its rotation). A visual editor draws its selection from these.
 *
 * @module render/component-layout
 */
import type { Component } from '../design/schema.js'
import type { ResolvedDocument } from './resolve-document.js'

/**
 * The box of one visible component in a rendered image.
 *
 * @example const box: ComponentBox = { key: 'title', type: 'text', x: 80, y: 80, width: 920, height: 200 }
 */
export interface ComponentBox {
  key: string
  type: Component['type']
  /** Left and top edges in pixels of the rendered image (the box before its rotation). */
  x: number
  y: number
  width: number
  height: number
  /** The key of the group it is in; absent at the top level. */
  parent?: string
  /** Degrees clockwise about the box's centre, when not 0. */
  rotation?: number
}

/**
 * The layout of a render: the rendered size and every visible component's box, in paint order
 * (a group before its children).
 *
 * @example const layout: RenderLayout = { width: 1080, height: 1080, components: [{ key: 'title', type: 'text', x: 80, y: 80, width: 920, height: 200 }] }
 */
export interface RenderLayout {
  width: number
  height: number
  components: ComponentBox[]
}

/** A box as the layout engine reports it: canvas pixels, untransformed. */
export interface DetectedBox {
  left: number
  top: number
  width: number
  height: number
}

/** Two decimals: enough for an editor, no float noise in the JSON. */
const round = (value: number): number => Math.round(value * 100) / 100

/**
 * The layout of `resolved` from the boxes the layout engine detected, by component key. A
 * component the engine did not lay out (one wholly off the canvas is left out of the tree) is
 * placed from its `x`/`y` in its group when that group places its children absolutely; inside
 * an auto-layout group it is left out.
 *
 * @example layoutOf(resolved, boxes).components.find((c) => c.key === 'title')
 */
export function layoutOf(resolved: ResolvedDocument, detected: ReadonlyMap<string, DetectedBox>): RenderLayout {
  const { scale, offsetX, offsetY } = resolved
  // The layout engine reports boxes inside the scaled wrapper of a variation untransformed: from
  // the wrapper's origin, in base-layout pixels.
  const toCanvas = (box: DetectedBox): DetectedBox => ({
    left: offsetX + (box.left - offsetX) * scale,
    top: offsetY + (box.top - offsetY) * scale,
    width: box.width * scale,
    height: box.height * scale,
  })
  const components: ComponentBox[] = []
  const visit = (list: readonly Component[], parent: Component | undefined, origin: { left: number; top: number } | undefined): void => {
    for (const component of list) {
      if (!component.visible) continue
      let box = detected.get(component.key)
      if (box) box = toCanvas(box)
      else if (origin) box = { left: origin.left + component.x * scale, top: origin.top + component.y * scale, width: component.width * scale, height: (component.height === 'auto' ? 0 : component.height) * scale }
      if (!box) continue
      components.push({
        key: component.key,
        type: component.type,
        x: round(box.left),
        y: round(box.top),
        width: round(box.width),
        height: round(box.height),
        ...(parent ? { parent: parent.key } : {}),
        ...(component.rotation % 360 !== 0 ? { rotation: component.rotation } : {}),
      })
      if (component.type === 'group') {
        // Absolute children are placed from the padding edge, inside the border.
        const border = (component.border?.width ?? 0) * scale
        visit(component.children, component, component.layout ? undefined : { left: box.left + border, top: box.top + border })
      }
    }
  }
  visit(resolved.document.components, undefined, { left: offsetX, top: offsetY })
  return { width: resolved.width, height: resolved.height, components }
}
