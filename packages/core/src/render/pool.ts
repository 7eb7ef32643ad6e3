/**
 * The render pool: worker threads (piscina) sized to the machine, each with its fonts
 * parsed once and warmed by a first render, so a server renders on every core without
 * blocking its event loop. A bounded queue turns overload into a clear error
 * (ERR_RENDER_BUSY) instead of unbounded memory and latency.
 *
 * @module render/pool
 */
import { availableParallelism } from 'node:os'
import type { Piscina } from 'piscina'
import { LithoError } from '../errors.js'
import { describeReceived, invalidArgument } from '../_internal/argument-error.js'
import { resolveOutputOptions, type OutputOptions } from './defaults.js'
import type { RenderOptions, RenderResult } from './render-document.js'
import { validateInput } from '../design/validated-documents.js'
import { resolveDesign, type ResolvedDocument } from './resolve-document.js'
import type { Renderer, RendererOptions } from './renderer.js'
import { resolveLayerCacheBytes } from './layers/layer-cache.js'
import { toHandles } from './source-handles.js'
import type { WorkerData, WorkerReply, WorkerTask } from './worker.js'

/** Each render thread's young generation (V8's nursery), in MB. */
const WORKER_YOUNG_GENERATION_MB = 8

/** Options of {@link createRenderPool}. */
export interface RenderPoolOptions extends RendererOptions {
  /** Worker threads. @default os.availableParallelism() */
  threads?: number
  /** Renders waiting beyond the running ones before `render` fails with ERR_RENDER_BUSY. @default threads × 32 */
  maxQueue?: number
  /** URL of the worker module (for bundlers that move files). @default the package's render-worker.js */
  workerUrl?: URL | string
}

/** A renderer backed by worker threads. */
export interface RenderPool extends Renderer {
  /** Renders a resolved document on a worker (see {@link Renderer.renderResolved}). */
  renderResolved(resolved: ResolvedDocument, output?: Partial<OutputOptions>): Promise<RenderResult>
  /** Number of worker threads. */
  readonly threads: number
  /**
   * Renders waiting for a worker, renders finished since the pool started, and the share of
   * the workers' capacity spent rendering since then (0-1, piscina's `utilization`).
   */
  stats(): { queued: number; completed: number; utilization: number }
  /** Resolves when every worker has started and rendered its warm-up design. */
  ready(): Promise<void>
}

function defaultWorkerUrl(): URL {
  // In the published package this file is bundled into dist/index.js beside
  // dist/render-worker.js. Run from source (tests), fall back to the built worker.
  const here = import.meta.url
  return here.endsWith('.ts') ? new URL('../../dist/render-worker.js', here) : new URL('./render-worker.js', here)
}

/**
 * Creates a pool of render worker threads.
 *
 * @example
 * const pool = createRenderPool()
 * const { bytes } = await pool.render(design, { format: 'jpeg', quality: 85 })
 * await pool.close()
 */
export function createRenderPool(options: RenderPoolOptions = {}): RenderPool {
  const threads = Math.max(1, options.threads ?? availableParallelism())
  // Checked here, at once: piscina (which would refuse them too) loads only after this returns.
  if (!Number.isInteger(threads)) throw invalidArgument(`Expected threads to be an integer >= 1 but received ${describeReceived(options.threads)}`)
  if (options.maxQueue !== undefined && !(Number.isInteger(options.maxQueue) && options.maxQueue >= 0))
    throw invalidArgument(`Expected maxQueue to be an integer >= 0 but received ${describeReceived(options.maxQueue)}`)
  const workerData: WorkerData = {
    renderer: {
      ...(options.network ? { network: options.network } : {}),
      ...(options.imageLimits ? { imageLimits: options.imageLimits } : {}),
      ...(options.maxFontBytes ? { maxFontBytes: options.maxFontBytes } : {}),
      ...(options.imageCacheTtlMs === undefined ? {} : { imageCacheTtlMs: options.imageCacheTtlMs }),
      // Checked here, so that a bad value is an error of this call, not of a worker's start.
      layerCacheBytes: resolveLayerCacheBytes(options.layerCacheBytes),
    },
  }
  // piscina (and with it the worker threads) loads when a pool is created, not when core is
  // imported: most importers of core never start a pool.
  const loading = import('piscina').then(
    ({ Piscina: Pool }) =>
      new Pool<WorkerTask, WorkerReply>({
        filename: String(options.workerUrl ?? defaultWorkerUrl()),
        minThreads: threads,
        maxThreads: threads,
        maxQueue: options.maxQueue ?? threads * 32,
        // Warm workers are the point of the pool: never let them idle out.
        idleTimeout: 2 ** 31 - 1,
        // Run queued renders in arrival order: without it piscina requeues at the back, which
        // doubled p99 at 32 clients (bench:http: in-process p99 1518 → 1176 ms).
        stricterFIFO: true,
        // A render thread's garbage is short-lived (satori's objects, strings, result buffers):
        // an 8 MB young generation scavenges it as well as V8's default, which grows the nursery
        // with survival and kept 50-60 MB more per 2-thread pool (300 renders: 307-328 MB against
        // 365-391 MB, throughput 43.5-45.3/s against 38.2-44.3/s; docs/performance.md).
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
        workerData,
      }),
  )
  let piscina: Piscina<WorkerTask, WorkerReply> | undefined
  // Renders asked for while piscina loads: counted as queued until it takes them.
  let waiting = 0
  const warm = loading
    .then((pool) => {
      piscina = pool
      return Promise.all(Array.from({ length: threads }, () => pool.run({ kind: 'warm' })))
    })
    .then(() => undefined)
  warm.catch(() => {})

  async function run(task: WorkerTask): Promise<WorkerReply> {
    let pool: Piscina<WorkerTask, WorkerReply> | undefined
    try {
      waiting++
      try {
        pool = await loading
      } finally {
        waiting--
      }
      return await pool.run(task)
    } catch (error) {
      if (pool && /queue is at limit/i.test(String((error as Error).message)))
        throw new LithoError('ERR_RENDER_BUSY', `the render queue is full (${pool.queueSize} waiting); retry shortly`, { cause: error })
      throw new LithoError('ERR_RENDER_FAILED', `render worker failed: ${(error as Error).message}`, { cause: error })
    }
  }

  // Large data: URIs go as handles (render/source-handles); a worker that lacks one gets the
  // task again with the texts.
  async function renderOnWorker(resolved: ResolvedDocument, output: OutputOptions): Promise<RenderResult> {
    const handled = toHandles(resolved)
    const task: WorkerTask = { kind: 'render', resolved: handled.resolved, output, ...(handled.texts.size > 0 ? { handles: [...handled.texts.keys()] } : {}) }
    let reply = await run(task)
    if (reply.missing === true) reply = await run({ ...task, texts: Object.fromEntries(handled.texts) })
    // The bytes were moved here (worker.ts), not copied: they are ours as they are.
    if (reply.ok && reply.result) return reply.result
    if (reply.error === undefined) throw new LithoError('ERR_RENDER_FAILED', 'render worker failed: it lacked an image source it was sent')
    throw LithoError.fromJSON(reply.error)
  }

  return {
    threads,
    // Resolved here, on the caller's thread, once: the worker gets a document it need not check.
    // Validated once per content (design/validated-documents): the same object, unchanged, is not.
    async render(document, renderOptions: RenderOptions = {}): Promise<RenderResult> {
      const output = resolveOutputOptions(renderOptions)
      return renderOnWorker(resolveDesign(validateInput(document), renderOptions), output)
    },
    async renderResolved(resolved: ResolvedDocument, output = {}): Promise<RenderResult> {
      return renderOnWorker(resolved, resolveOutputOptions(output))
    },
    stats: () => ({ queued: waiting + (piscina?.queueSize ?? 0), completed: piscina?.completed ?? 0, utilization: piscina?.utilization ?? 0 }),
    ready: () => warm,
    async close() {
      const pool = await loading.catch(() => undefined)
      await pool?.destroy()
    },
  }
}
