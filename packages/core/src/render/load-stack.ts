/**
 * Loads the render stack (render/stack) on first use; every later call gets the same module.
 *
 * @module render/load-stack
 */

type RenderStack = typeof import('./stack.js')
let loading: Promise<RenderStack> | undefined

/** The render pipeline, imported the first time a render asks for it. */
export function loadRenderStack(): Promise<RenderStack> {
  loading ??= import('./stack.js')
  return loading
}
