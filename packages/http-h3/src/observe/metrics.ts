/**
 * Prometheus metrics (prom-client): one registry per app or server, the metrics of the render
 * service, and wrappers that feed them from the ports Litho already has (the renderer, the
 * output cache, the webhook sender, the job store and queue). Every label takes values from a
 * fixed set (route patterns, formats, error codes, outcomes), never from a request's own text,
 * so a scraper's series stay bounded whatever clients send. docs/metrics.md lists them.
 *
 * @module observe/metrics
 */
import type { OutputCache, RenderPool, Renderer, WebhookSender } from '@litho/core'
import type { JobQueue, JobStore } from '@litho/core/contracts'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'

/** Seconds: from a cached answer (milliseconds) to a slow PDF. */
const RENDER_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/** Which cache produced a render: the output cache (nothing rendered), cached static layers, or none. */
export type RenderCacheLabel = 'output' | 'layer' | 'none'

/** The metrics of one app or server, and the registry they are in. */
export interface LithoMetrics {
  readonly registry: Registry
  /** A finished HTTP request: its route pattern (`/v1/:design_id`), never its raw path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void
  /** The outcome of a render request: `ok` or the error code that refused it. */
  countRender(operation: string, outcome: string): void
  /** The renderer, timing each render by format and layer-cache use. */
  instrumentRenderer<R extends Pick<Renderer, 'render' | 'renderResolved'>>(renderer: R): R
  /** The output cache, timing each answer it serves (`cache="output"`). */
  instrumentOutputCache(cache: OutputCache): OutputCache
  /** The webhook sender, counting deliveries by outcome (`delivered`, or why not). */
  instrumentWebhookSender(sender: WebhookSender): WebhookSender
  /** The job store, counting export jobs that end a run: `succeeded`, `failed`, `retried`. */
  instrumentJobStore(store: JobStore): JobStore
  /** Counts a job the queue gave up on. */
  countAbandonedJob(): void
  /** Reports the pool's threads, queue and utilisation at each scrape. */
  watchPool(pool: Pick<RenderPool, 'threads' | 'stats'>): void
  /** Reports the export queue's depth at each scrape, when the queue can tell. */
  watchQueue(queue: Pick<JobQueue, 'depth'>): void
}

/** Options of {@link createLithoMetrics}. */
export interface LithoMetricsOptions {
  /** Also collect prom-client's process metrics (memory, CPU, event-loop lag, GC). @default true */
  defaultMetrics?: boolean
  /** The registry to add to. @default a new one */
  registry?: Registry
}

/**
 * Creates the metrics of docs/metrics.md in a registry.
 *
 * @example
 * const metrics = createLithoMetrics()
 * const app = createLithoApp({ ...options, metrics })
 * // GET /metrics → litho_http_requests_total{method="GET",route="/v1/:design_id",status="200"} 1 …
 */
export function createLithoMetrics(options: LithoMetricsOptions = {}): LithoMetrics {
  const registry = options.registry ?? new Registry()
  const registers = [registry]
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry })
  const requests = new Counter({ name: 'litho_http_requests_total', help: 'HTTP requests by method, route pattern and status.', labelNames: ['method', 'route', 'status'], registers })
  const requestSeconds = new Histogram({ name: 'litho_http_request_duration_seconds', help: 'HTTP request duration by method and route pattern.', labelNames: ['method', 'route'], buckets: HTTP_BUCKETS, registers })
  const renderSeconds = new Histogram({
    name: 'litho_render_duration_seconds',
    help: 'Time to produce an image, by format and by the cache that served it: output (nothing rendered), layer (static layers reused) or none.',
    labelNames: ['format', 'cache'],
    buckets: RENDER_BUCKETS,
    registers,
  })
  const renders = new Counter({ name: 'litho_render_requests_total', help: 'Render and export requests by operation and outcome: ok, or the error code that refused them.', labelNames: ['operation', 'outcome'], registers })
  const jobs = new Counter({ name: 'litho_export_jobs_total', help: 'Export job runs by outcome: succeeded, failed, retried, abandoned.', labelNames: ['outcome'], registers })
  const webhooks = new Counter({ name: 'litho_webhook_deliveries_total', help: 'Webhook delivery attempts by outcome: delivered, or the reason they failed.', labelNames: ['outcome'], registers })
  let pool: Pick<RenderPool, 'threads' | 'stats'> | undefined
  let queue: Pick<JobQueue, 'depth'> | undefined
  new Gauge({ name: 'litho_render_pool_threads', help: 'Render worker threads.', registers, collect() { if (pool) this.set(pool.threads) } })
  new Gauge({ name: 'litho_render_pool_queued', help: 'Renders waiting for a worker thread.', registers, collect() { if (pool) this.set(pool.stats().queued) } })
  new Gauge({ name: 'litho_render_pool_utilization', help: 'Share of the render threads busy since the pool started (0-1).', registers, collect() { if (pool) this.set(pool.stats().utilization) } })
  const running = new Gauge({ name: 'litho_renders_in_flight', help: 'Renders running or waiting in this process.', registers })
  new Gauge({
    name: 'litho_export_queue_depth',
    help: 'Export jobs waiting in the queue (shared queues: all instances).',
    registers,
    async collect() {
      const depth = await queue?.depth?.().catch(() => undefined)
      if (depth !== undefined) this.set(depth)
    },
  })

  const timed = async (format: string, run: () => Promise<{ format?: string; layerCache?: 'hit' | 'miss' }>) => {
    const started = performance.now()
    running.inc()
    try {
      const result = await run()
      renderSeconds.observe({ format: result.format ?? format, cache: result.layerCache === 'hit' ? 'layer' : 'none' }, (performance.now() - started) / 1000)
      return result
    } finally {
      running.dec()
    }
  }
  const processing = new Set<string>()

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) })
      requestSeconds.observe({ method, route }, seconds)
    },
    countRender: (operation, outcome) => renders.inc({ operation, outcome }),
    instrumentRenderer(renderer) {
      const wrapped = {
        ...renderer,
        render: (document: unknown, renderOptions?: Parameters<Renderer['render']>[1]) => timed(renderOptions?.format ?? 'png', () => renderer.render(document, renderOptions)),
        ...(renderer.renderResolved ? { renderResolved: (resolved: Parameters<NonNullable<Renderer['renderResolved']>>[0], output?: Parameters<NonNullable<Renderer['renderResolved']>>[1]) => timed(output?.format ?? 'png', () => renderer.renderResolved!(resolved, output)) } : {}),
      }
      return wrapped as unknown as typeof renderer
    },
    instrumentOutputCache(cache) {
      return {
        get remoteTtlMs() {
          return cache.remoteTtlMs
        },
        async get(key) {
          const started = performance.now()
          const entry = await cache.get(key)
          if (entry !== undefined) renderSeconds.observe({ format: entry.format, cache: 'output' }, (performance.now() - started) / 1000)
          return entry
        },
        set: (key, entry, setOptions) => cache.set(key, entry, setOptions),
        stats: () => cache.stats(),
        clear: () => cache.clear(),
      }
    },
    instrumentWebhookSender(sender) {
      return {
        async send(request) {
          const delivery = await sender.send(request)
          webhooks.inc({ outcome: delivery.ok ? 'delivered' : (delivery.reason ?? 'failed') })
          return delivery
        },
      }
    },
    instrumentJobStore(store) {
      const wrapped: JobStore = Object.create(store)
      wrapped.update = async (record) => {
        const updated = await store.update(record)
        // A run saves `processing` first, then its outcome: count the outcome once per run.
        if (record.status === 'processing') processing.add(record.id)
        else if (processing.delete(record.id)) jobs.inc({ outcome: record.status === 'queued' ? 'retried' : record.status })
        return updated
      }
      return wrapped
    },
    countAbandonedJob: () => jobs.inc({ outcome: 'abandoned' }),
    watchPool(watched) {
      pool = watched
    },
    watchQueue(watched) {
      queue = watched
    },
  }
}
