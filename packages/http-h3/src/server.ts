/**
 * The standalone server behind `litho serve`: the backends chosen by environment variables,
 * a render pool sized to the machine, the app, and a Node HTTP server that stops cleanly.
 * A request gate answers from the moment the port opens: early requests wait for the app (or
 * get 503 with `Retry-After`), requests during shutdown get 503 with `Connection: close`, and
 * `/healthz` (liveness) and `/readyz` (readiness) answer in every state.
 *
 * @module server
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  createAssetSource,
  createExportJobHandler,
  createRenderPool,
  DEFAULT_OUTPUT_CACHE_BYTES,
  createWebhookSecrets,
  createWebhookSender,
  networkPolicyFromEnv,
  reconcileRefunds,
  stateStoreRefundLedger,
  type ExportJobServices,
  type RenderPool,
} from '@litho/core'
import type { AuthorizationServer } from '@litho/auth-adapters'
import { consoleAssetsDir } from '@litho/console'
import { H3, toNodeHandler } from 'h3'
import { createLithoApp } from './app/create-litho-app.js'
import { malformedUrlResponse } from './app/malformed-url.js'
import { errorJson } from './app/errors.js'
import { ConfigError, createBackends, type LithoBackends } from './backends.js'
import { consoleClient, createOAuthFromEnv } from './oauth-config.js'
import { readPlanSettings } from './plans-config.js'
import { backendChecks, createReadiness } from './readiness.js'
import { createRequestGate } from './request-gate.js'
import { createLogger, type LithoLogger } from './observe/logger.js'
import { createLithoMetrics, type LithoMetrics } from './observe/metrics.js'
import { createNodeObserver, startMetricsServer } from './observe/node-observer.js'
import { readHostedRetentionDays, readSweepIntervalSeconds, startSweeper } from './retention.js'

/** Options of {@link startLithoServer}. */
export interface LithoServerOptions {
  /** Where the embedded default keeps everything. */
  dataDir: string
  /** @default 3000; 0 picks a free port */
  port?: number
  /** @default '127.0.0.1' */
  host?: string
  /** The address clients use (`{render_url}`, and the base of file URLs). @default `http://<host>:<port>` */
  publicUrl?: string
  /** Render worker threads. @default os.availableParallelism() */
  threads?: number
  /** Where the `LITHO_*` variables are read from. @default process.env */
  env?: Record<string, string | undefined>
  /** Log one line per request (request id, method, route pattern, path without query, status, milliseconds). @default false */
  logRequests?: boolean
  /** Where log lines go, as text, when there is no `logger`. @default console.log */
  log?: (line: string) => void
  /** The log (observe/logger: pino's JSON or text): start-up lines, requests, errors with their request id. @default text lines to `log` */
  logger?: LithoLogger
  /**
   * Prometheus metrics (docs/metrics.md): at `/metrics` on the main port, or on `port` (on the
   * same host); with `token`, scrapers must send `Authorization: Bearer <token>`. @default off
   */
  metrics?: { port?: number; token?: string }
  /** Seconds to wait for in-flight requests on close before cutting connections. @default 30 */
  closeTimeoutSeconds?: number
  /**
   * Milliseconds the port stays open on close, answering every new request with 503 and
   * `Connection: close`, before it stops accepting (ends early once no connection is open).
   * A request on a keep-alive connection that was idle at the signal gets that 503, not a reset.
   * @default 1000
   */
  closeGraceMs?: number
  /** The webhook retry schedule (delays in ms before each attempt). @default WEBHOOK_RETRY_SCHEDULE_MS */
  webhookRetryScheduleMs?: number[]
  /** The first delay before retrying a transient export failure (doubles per run). @default 2000 */
  jobRetryBaseMs?: number
  /** How often refunds the meter refused are given back (`reconcileRefunds`; also once at start). @default 300000 (5 minutes) */
  refundReconcileIntervalMs?: number
  /** Days a hosted file is kept; null: forever. @default `LITHO_HOSTED_RETENTION_DAYS`, else null */
  hostedRetentionDays?: number | null
  /**
   * The output cache (`outputCache` of `createLithoApp`): `maxBytes` in memory (0: none),
   * `shared` through the data dir's file store. @default 64 MiB in memory
   */
  outputCache?: { maxBytes?: number; shared?: boolean }
  /** Serve the Litho Console at `/console` and register its OAuth client (docs/console.md). @default true */
  console?: boolean
  /** Serve the API reference (Swagger UI over `/openapi.json`) at `/docs`. @default true */
  docs?: boolean
}

/** A running server. */
export interface LithoServer {
  /** The public address, e.g. `http://127.0.0.1:3000`. */
  url: string
  /** The port it listens on. */
  port: number
  backends: LithoBackends
  pool: RenderPool
  /** The built-in authorization server. */
  oauth: AuthorizationServer
  /** Its default org: the issuer is `oauth.issuer(orgId)`. */
  orgId: string
  /** The metrics, when they are on. */
  metrics?: LithoMetrics
  /** Where they are scraped, e.g. `http://127.0.0.1:3000/metrics`. */
  metricsUrl?: string
  /** Stops accepting connections, lets in-flight requests finish, then releases everything. */
  close(): Promise<void>
}

/**
 * Starts the service on the embedded default (or the backends the environment names) and
 * resolves once the render workers are warm and the port is listening.
 *
 * @example
 * const server = await startLithoServer({ dataDir: '.litho', port: 3000 })
 * process.on('SIGTERM', () => server.close())
 */
export async function startLithoServer(options: LithoServerOptions): Promise<LithoServer> {
  const host = options.host ?? '127.0.0.1'
  const logger = options.logger ?? createLogger({ format: 'text', ...(options.log ? { write: options.log } : {}) })
  const log = (line: string) => logger.info({}, line)
  const metrics = options.metrics ? createLithoMetrics() : undefined
  const observer = createNodeObserver({ logger, logRequests: options.logRequests ?? false, metrics })
  const env = options.env ?? process.env
  // Checked before anything starts, so a mistake costs nothing to clean up.
  const mcpAllowedOrigins = env.LITHO_MCP_ALLOWED_ORIGINS ? readOrigins(env.LITHO_MCP_ALLOWED_ORIGINS) : undefined
  // Webhook URLs follow the rules of remote images (LITHO_ALLOW_NETWORKS, LITHO_ALLOW_HTTP).
  const policy = networkPolicyFromEnv(env)
  const hostedRetentionDays = options.hostedRetentionDays !== undefined ? options.hostedRetentionDays : readHostedRetentionDays(undefined, env)
  const sweepIntervalSeconds = readSweepIntervalSeconds(env)
  // LITHO_PLANS and LITHO_DEFAULT_PLAN: a bad table stops the server here, naming the field.
  const { plans } = readPlanSettings(env)
  const withConsole = options.console ?? true

  // The port must be known before the file URLs are: listen first, with a gate that holds
  // early requests until the app is ready (or answers 503), so none meets silence.
  const gate = createRequestGate()
  const server: Server = createServer(observer.outer(gate.listener))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 3000, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  // Trailing slashes; (?<!\/) starts a match only at the first of them, so it stays linear.
  const url = (options.publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/(?<!\/)\/+$/, '')

  let backends: LithoBackends | undefined
  let pool: RenderPool | undefined
  let auth: Awaited<ReturnType<typeof createOAuthFromEnv>>
  let metricsServer: Awaited<ReturnType<typeof startMetricsServer>> | undefined
  const onError = (error: unknown, at?: { requestId?: string }) => logger.error({ err: error, ...(at?.requestId ? { reqId: at.requestId } : {}) }, 'error')
  try {
    backends = await createBackends({ dataDir: options.dataDir, filesBaseUrl: `${url}/files`, env })
    auth = await createOAuthFromEnv({ url, state: backends.authState, accounts: backends.accounts, meter: backends.meter, env, onError, console: withConsole })
    const layerCacheBytes = layerCacheBytesFromEnv(env)
    const maxQueue = renderQueueFromEnv(env)
    pool = createRenderPool({ ...(options.threads ? { threads: options.threads } : {}), ...(layerCacheBytes === undefined ? {} : { layerCacheBytes }), ...(maxQueue === undefined ? {} : { maxQueue }) })
    await pool.ready()
    if (metrics && options.metrics?.port !== undefined) metricsServer = await startMetricsServer(metrics, { host, port: options.metrics.port, token: options.metrics.token })
  } catch (error) {
    gate.fail()
    server.close()
    server.closeIdleConnections()
    await pool?.close()
    await backends?.dispose()
    await metricsServer?.close()
    throw error
  }

  // Refunds the meter refused are written down next to the OAuth state (every backend has it)
  // and given back at start and periodically; idempotent, so every instance may run it.
  const refunds = { ledger: stateStoreRefundLedger(backends.authState), report: onError }
  // One run at a time: a slow meter must not let the next interval read the same entries.
  let reconciling: Promise<void> | undefined
  const reconcile = (): Promise<void> =>
    (reconciling ??= reconcileRefunds({ meter: backends!.meter, refunds })
      .then(({ refunded, alreadySettled, pending }) => {
        if (refunded + alreadySettled + pending > 0) log(`refunds reconciled: ${refunded} given back, ${alreadySettled} already settled, ${pending} still pending`)
      }, onError)
      .finally(() => (reconciling = undefined)))
  void reconcile()
  const reconcileTimer = setInterval(() => void reconcile(), options.refundReconcileIntervalMs ?? 300_000)
  reconcileTimer.unref()

  // Export jobs: the app enqueues, this process runs them (every instance does, on a shared queue).
  // With metrics, the job runs are timed and counted (the app times its own renders).
  const jobServices: ExportJobServices = {
    designs: backends.designs,
    files: backends.files,
    meter: backends.meter,
    refunds,
    retention: backends.retention,
    renderer: metrics ? metrics.instrumentRenderer(pool) : pool,
    assetSource: createAssetSource({ assets: backends.assets, files: backends.files }),
    jobs: metrics ? metrics.instrumentJobStore(backends.jobs) : backends.jobs,
    queue: backends.queue,
    plans,
    webhooks: {
      sender: metrics ? metrics.instrumentWebhookSender(createWebhookSender({ policy })) : createWebhookSender({ policy }),
      secrets: createWebhookSecrets(backends.authState),
      policy,
      ...(options.webhookRetryScheduleMs ? { scheduleMs: options.webhookRetryScheduleMs } : {}),
    },
    ...(options.jobRetryBaseMs !== undefined ? { baseRetryMs: options.jobRetryBaseMs } : {}),
  }
  const runJob = createExportJobHandler(jobServices, onError)
  const onGiveUp: typeof runJob.onGiveUp = metrics ? (job, reason) => (metrics.countAbandonedJob(), runJob.onGiveUp(job, reason)) : runJob.onGiveUp
  backends.queue.start(runJob, { concurrency: pool.threads, onGiveUp })
  metrics?.watchPool(pool)
  metrics?.watchQueue(backends.queue)

  const litho = createLithoApp({
    designs: backends.designs,
    accounts: backends.accounts,
    files: backends.files,
    meter: backends.meter,
    refundLedger: refunds.ledger,
    retention: backends.retention,
    assets: backends.assets,
    network: policy,
    signer: backends.signer,
    renderLinks: backends.renderLinks,
    renderer: pool,
    renderUrl: url,
    plans,
    oauth: auth.oauth,
    jobs: { jobs: jobServices.jobs, queue: jobServices.queue, webhooks: jobServices.webhooks },
    trustProxy: env.LITHO_TRUST_PROXY === '1' || env.LITHO_TRUST_PROXY === 'true',
    strictOverrides: env.LITHO_STRICT_OVERRIDES === '1' || env.LITHO_STRICT_OVERRIDES === 'true',
    ...(mcpAllowedOrigins ? { mcpAllowedOrigins } : {}),
    ...(options.outputCache ? { outputCache: options.outputCache } : {}),
    ...(withConsole ? { console: { assetsDir: consoleAssetsDir } } : {}),
    docs: options.docs ?? true,
    onError,
    logger,
    logRequests: options.logRequests ?? false,
    ...(metrics ? { metrics, metricsEndpoint: options.metrics?.port === undefined ? { ...(options.metrics?.token ? { token: options.metrics.token } : {}) } : false } : {}),
  })
  // The outer app sees a malformed path first (h3 refuses it before routing).
  const app = new H3({ onError: malformedUrlResponse })
  app.mount('', litho)
  app.all('/**', (event) => errorJson(404, `no route for ${event.req.method} ${event.url.pathname}`))
  const workers = pool
  const readiness = createReadiness({ checks: backendChecks(backends, () => workers.ready()), report: (name, error) => log(`not ready: ${name}: ${(error as Error)?.message ?? String(error)}`) })
  const handler = toNodeHandler(app)
  gate.open(observer.inner((req, res) => void handler(req, res)), () => readiness.check())
  for (const line of backends.describe) log(line)
  log(`oauth issuer: ${auth.oauth.issuer(auth.orgId)}`)
  log(`render workers: ${pool.threads}`)
  if (withConsole) log(`console: ${url}/console/${consoleClient(url) ? '' : ' (its sign-in needs an https public URL, or http on a loopback host)'}`)
  const cache = options.outputCache
  log(`output cache: ${cache?.maxBytes === 0 ? 'no memory' : `${((cache?.maxBytes ?? DEFAULT_OUTPUT_CACHE_BYTES) / 1048576).toFixed(0)} MiB in memory`}${cache?.shared ? ', shared through the file store' : ''}`)
  log(`retention: signed files until they expire, hosted files ${hostedRetentionDays === null ? 'forever' : `${hostedRetentionDays} days`}; swept every ${sweepIntervalSeconds} s`)
  const sweeper = startSweeper(backends, { hostedRetentionDays, intervalSeconds: sweepIntervalSeconds, log })

  let closing: Promise<void> | undefined
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      // From here every new request gets 503 with `Connection: close`; those in flight finish.
      gate.close()
      await graceBeforeClosing(server, options.closeGraceMs ?? 1000)
      const timeout = setTimeout(() => server.closeAllConnections(), (options.closeTimeoutSeconds ?? 30) * 1000)
      timeout.unref()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Keep-alive connections with no request in flight would hold close() open.
        server.closeIdleConnections()
      })
      clearTimeout(timeout)
      clearInterval(reconcileTimer)
      await sweeper.stop()
      // Jobs in flight finish (or are cut off and run again after the next start), then the pool goes.
      await backends!.queue.close()
      await pool!.close()
      await backends!.dispose()
      await metricsServer?.close()
    })())
  const metricsUrl = metricsServer?.url ?? (metrics ? `${url}/metrics` : undefined)
  return { url, port, backends, pool, oauth: auth.oauth, orgId: auth.orgId, close, ...(metrics ? { metrics } : {}), ...(metricsUrl ? { metricsUrl } : {}) }
}

/**
 * Waits up to `ms` while connections are open. `server.close()` destroys idle keep-alive
 * connections at once, so a client that sends on one at that moment gets a reset; during the
 * grace it gets a 503 that closes the connection instead.
 */
async function graceBeforeClosing(server: Server, ms: number): Promise<void> {
  const until = performance.now() + ms
  while (performance.now() < until) {
    const open = await new Promise<number>((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)))
    if (open === 0) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** `LITHO_MCP_ALLOWED_ORIGINS`: comma-separated origins of browser pages that may call `/api/mcp`. */
function readOrigins(value: string): string[] {
  return value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => {
      try {
        const url = new URL(o)
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http')
        return url.origin
      } catch {
        throw new ConfigError(`LITHO_MCP_ALLOWED_ORIGINS: ${JSON.stringify(o)} is not an http(s) origin like https://inspector.example.com`)
      }
    })
}

/**
 * `LITHO_LAYER_CACHE_MB`: megabytes of rasterized static layers each render worker keeps
 * (docs/performance.md); 0 turns the cache off. Unset: the renderer's default (64 MiB).
 *
 * @throws ConfigError when it is not a whole number from 0 to 65536.
 * @example layerCacheBytesFromEnv({ LITHO_LAYER_CACHE_MB: '128' }) // 134217728
 */
export function layerCacheBytesFromEnv(env: Record<string, string | undefined>): number | undefined {
  const raw = env.LITHO_LAYER_CACHE_MB
  if (raw === undefined || raw === '') return undefined
  if (!/^\d+$/.test(raw) || Number(raw) > 65_536) throw new ConfigError(`LITHO_LAYER_CACHE_MB: expected a whole number of megabytes from 0 to 65536, received ${JSON.stringify(raw)}`)
  return Number(raw) * 1024 * 1024
}

/**
 * `LITHO_RENDER_QUEUE`: renders that may wait beyond the running ones before a render is refused
 * with 503 `ERR_RENDER_BUSY` (docs/serve.md). Unset: the pool's default, 32 per thread.
 *
 * @throws ConfigError when it is not a whole number from 0 to 100000.
 * @example renderQueueFromEnv({ LITHO_RENDER_QUEUE: '128' }) // 128
 */
export function renderQueueFromEnv(env: Record<string, string | undefined>): number | undefined {
  const raw = env.LITHO_RENDER_QUEUE
  if (raw === undefined || raw === '') return undefined
  if (!/^\d{1,6}$/.test(raw) || Number(raw) > 100_000) throw new ConfigError(`LITHO_RENDER_QUEUE: expected a whole number of renders from 0 to 100000, received ${JSON.stringify(raw.slice(0, 20))}`)
  return Number(raw)
}
