/**
 * The Node side of `litho serve`'s observability: every request gets its id before the
 * request gate sees it (so the gate's own answers, `/healthz`, `/readyz` and the 503s of start
 * and stop, carry it too), and the requests the gate answers itself, which never reach the
 * app, are logged and counted here; the app logs and counts the rest. Also the optional metrics
 * server on a port of its own.
 *
 * @module observe/node-observer
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { LithoLogger } from './logger.js'
import { METRICS_PATH, metricsResponse } from './metrics-endpoint.js'
import type { LithoMetrics } from './metrics.js'
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js'

type Listener = (req: IncomingMessage, res: ServerResponse) => void

/** Options of {@link createNodeObserver}. */
export interface NodeObserverOptions {
  logger: LithoLogger
  logRequests: boolean
  metrics?: LithoMetrics | undefined
}

/**
 * Wraps the gate's listener (`outer`) and the app's handler (`inner`), so that a request the
 * app handles is observed by the app and one the gate answers is observed here.
 *
 * @example
 * const observer = createNodeObserver({ logger, logRequests: true })
 * const server = createServer(observer.outer(gate.listener))
 * gate.open(observer.inner(handler), readiness)
 */
export function createNodeObserver(options: NodeObserverOptions): { outer(listener: Listener): Listener; inner(handler: Listener): Listener } {
  const reachedApp = new WeakSet<IncomingMessage>()
  return {
    outer: (listener) => (req, res) => {
      const started = performance.now()
      const given = req.headers[REQUEST_ID_HEADER]
      const id = requestIdOf(typeof given === 'string' ? given : undefined)
      // The app reads the id from the request: a checked one, never the client's raw text.
      req.headers[REQUEST_ID_HEADER] = id
      res.setHeader(REQUEST_ID_HEADER, id)
      res.once('finish', () => {
        if (reachedApp.has(req)) return
        const path = (req.url ?? '').split('?')[0]!
        const route = path === '/healthz' || path === '/readyz' ? path : 'gate'
        const seconds = (performance.now() - started) / 1000
        options.metrics?.observeRequest(req.method ?? 'GET', route, res.statusCode, seconds)
        if (options.logRequests) options.logger.info({ reqId: id, method: req.method, route, path, status: res.statusCode, durationMs: Math.round(seconds * 10_000) / 10 }, 'request')
      })
      listener(req, res)
    },
    inner: (handler) => (req, res) => {
      reachedApp.add(req)
      handler(req, res)
    },
  }
}

/**
 * Serves `GET /metrics` (and nothing else) on a port of its own, e.g. one only the scraper's
 * network reaches.
 *
 * @example const { url, close } = await startMetricsServer(metrics, { host: '0.0.0.0', port: 9464 })
 */
export async function startMetricsServer(metrics: LithoMetrics, options: { host: string; port: number; token?: string | undefined }): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ success: false, message: `this port serves only GET ${METRICS_PATH}`, code: 'ERR_NOT_FOUND' }))
      return
    }
    const authorization = req.headers.authorization
    const request = new Request(`http://metrics${METRICS_PATH}`, { method: req.method, headers: authorization ? { authorization } : {} })
    metricsResponse(request, metrics, { token: options.token }).then(
      async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers))
        res.end(req.method === 'HEAD' ? undefined : await response.text())
      },
      () => res.writeHead(500).end(),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  return {
    url: `http://${host}:${port}${METRICS_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
