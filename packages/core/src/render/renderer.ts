/**
 * In-process rendering: `createRenderer()` for embedders who want renders on their own
 * thread, and the `render()` shortcut. Servers should use `createRenderPool()` instead,
 * because resvg rasterises synchronously and would block the event loop.
 *
 * @module render/renderer
 */
import { createImageLoader, fetchRemote, networkPolicyFromEnv, type ImageLimits, type NetworkPolicy } from './images/index.js'
import { resolveOutputOptions, type OutputOptions } from './defaults.js'
import type { RenderContext, RenderOptions, RenderResult } from './render-document.js'
import { loadRenderStack } from './load-stack.js'
import type { ResolvedDocument } from './resolve-document.js'
import { createLayerCache } from './layers/layer-cache.js'

/** Options shared by the in-process renderer and the render pool. */
export interface RendererOptions {
  /** Which addresses remote images and fonts may come from, and extra CAs. @default networkPolicyFromEnv() */
  network?: Pick<NetworkPolicy, 'allowHttp' | 'allowNetworks' | 'ca'>
  /** Limits for remote images (bytes, pixels, timeouts, redirects). */
  imageLimits?: Partial<ImageLimits>
  /** Largest custom font file in bytes. @default 10 MB */
  maxFontBytes?: number
  /** How long a remote image's bytes are reused before its URL is fetched again, in ms. @default 600000 (10 minutes) */
  imageCacheTtlMs?: number
  /**
   * Bytes of rasterized static layers kept per render thread, so raster renders lay out and
   * rasterize only what their overrides change (docs/performance.md, "Static-layer cache");
   * 0 turns the cache off. @default 67108864 (64 MiB)
   */
  layerCacheBytes?: number
}

/** Renders design documents. */
export interface Renderer {
  /**
   * Renders `document` (raw JSON or a validated document): validates, resolves, then renders.
   * The same object rendered again with unchanged content is not validated again.
   */
  render(document: unknown, options?: RenderOptions): Promise<RenderResult>
  /**
   * Renders a document already resolved by `resolveDocument` or `resolveDesign`, without
   * validating it again (the services resolve before they meter, then call this). Optional: a
   * renderer written by an embedder may leave it out, and the services then call `render`.
   */
  renderResolved?(resolved: ResolvedDocument, output?: Partial<OutputOptions>): Promise<RenderResult>
  /**
   * Resolves once the renderer can render without loading or compiling anything: the render
   * stack loaded, the built-in faces parsed, a small warm-up design rendered in JPEG and PNG
   * (render/warm-up). Call it at start-up so that the first request does not pay for that
   * (about 450 ms on a 2-core machine, which took the first render of a 1080×1080 card from
   * ~700 to ~270 ms). Calling it again, or rendering meanwhile, is safe. Optional: a renderer
   * written by an embedder may leave it out; the render pool's resolves once every thread is warm.
   */
  ready?(): Promise<void>
  /** Releases resources (threads, caches). */
  close(): Promise<void>
}

/** Builds the per-process (or per-thread) context: one image loader and one layer cache. */
export function createRenderContext(options: RendererOptions = {}): RenderContext {
  const policy: NetworkPolicy = { ...networkPolicyFromEnv(), ...options.network }
  const images = createImageLoader({
    policy,
    ...(options.imageLimits ? { limits: options.imageLimits } : {}),
    ...(options.imageCacheTtlMs === undefined ? {} : { cacheTtlMs: options.imageCacheTtlMs }),
  })
  const maxBytes = options.maxFontBytes ?? 10 * 1024 * 1024
  return {
    images,
    layers: createLayerCache(options.layerCacheBytes),
    fetchFont: async (url) => (await fetchRemote(url, { policy, limits: { maxBytes }, errorCode: 'ERR_FONT_FETCH' })).bytes,
  }
}

// resvg-js frees its native buffers only when the event loop gets a macrotask turn
// (thx/resvg-js#216): without this, RSS grows ~6 MB per render in a tight loop.
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * Creates a renderer that runs on the calling thread.
 *
 * @example
 * const renderer = createRenderer()
 * await renderer.ready() // at start-up: the first render then starts on warm code
 * const { bytes } = await renderer.render(design, { format: 'png', overrides: { 'title.text': 'Hi' } })
 */
export function createRenderer(options: RendererOptions = {}): Renderer & Required<Pick<Renderer, 'ready'>> {
  const context = createRenderContext(options)
  let warming: Promise<void> | undefined
  return {
    ready() {
      warming ??= loadRenderStack().then(({ warmUp }) => warmUp(context))
      return warming
    },
    async render(document, renderOptions = {}) {
      try {
        // The pipeline loads on the first render, not when core is imported (render/stack).
        const { renderDocument } = await loadRenderStack()
        return await renderDocument(document, renderOptions, context)
      } finally {
        await yieldToEventLoop()
      }
    },
    async renderResolved(resolved, output = {}) {
      const checked = resolveOutputOptions(output)
      try {
        const { renderResolved } = await loadRenderStack()
        return await renderResolved(resolved, checked, context)
      } finally {
        await yieldToEventLoop()
      }
    },
    async close() {
      context.images.clear()
      context.layers?.clear()
    },
  }
}

let shared: Renderer | undefined

/**
 * Renders a design document in-process with the default settings.
 *
 * @example
 * import { render } from '@litho/core'
 * const { bytes, contentType } = await render(design, { format: 'png' })
 */
export function render(document: unknown, options: RenderOptions = {}): Promise<RenderResult> {
  shared ??= createRenderer()
  return shared.render(document, options)
}
