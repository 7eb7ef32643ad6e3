/**
 * `GET /metrics`: the registry in Prometheus' text format. Anyone who reaches the port may read
 * it unless a token is set: then only `Authorization: Bearer <token>` (compared in constant
 * time) gets it, others a 401 with a `WWW-Authenticate` challenge.
 *
 * @module observe/metrics-endpoint
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { LithoMetrics } from './metrics.js'

/** The path the metrics are served at. */
export const METRICS_PATH = '/metrics'

/** Shortest token accepted: a guessable token would protect nothing. */
export const MIN_METRICS_TOKEN_LENGTH = 16

/** Options of {@link metricsResponse}. */
export interface MetricsEndpointOptions {
  /** The bearer token a scraper must send. @default none: open to whoever reaches the port */
  token?: string | undefined
}

/**
 * Checks a metrics token: at least {@link MIN_METRICS_TOKEN_LENGTH} printable characters.
 *
 * @returns the problem as a sentence, or undefined when it is fine
 * @example metricsTokenProblem('short') // 'expected at least 16 characters…'
 */
export function metricsTokenProblem(token: string): string | undefined {
  if (token.length < MIN_METRICS_TOKEN_LENGTH || token.length > 512 || !/^[\x21-\x7e]+$/.test(token)) return `expected ${MIN_METRICS_TOKEN_LENGTH} to 512 printable characters without spaces (e.g. openssl rand -hex 32), received ${token.length} characters`
  return undefined
}

/**
 * The answer to a metrics request: the text exposition, or a 401 when a token is set and the
 * request does not carry it.
 *
 * @example await metricsResponse(request, metrics, { token: process.env.LITHO_METRICS_TOKEN })
 */
export async function metricsResponse(request: Request, metrics: LithoMetrics, options: MetricsEndpointOptions = {}): Promise<Response> {
  if (options.token !== undefined && !hasToken(request.headers.get('authorization'), options.token)) {
    const body = JSON.stringify({ success: false, message: 'metrics: send the metrics token as Authorization: Bearer <token>', code: 'ERR_UNAUTHORIZED' })
    return new Response(body, { status: 401, headers: { 'content-type': 'application/json; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"', 'cache-control': 'no-store' } })
  }
  const text = await metrics.registry.metrics()
  return new Response(request.method === 'HEAD' ? null : text, { status: 200, headers: { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' } })
}

function hasToken(authorization: string | null, token: string): boolean {
  if (authorization === null || !authorization.toLowerCase().startsWith('bearer ')) return false
  // Hashes of equal length, so the comparison takes the same time whatever was sent.
  const digest = (value: string) => createHash('sha256').update(value).digest()
  return timingSafeEqual(digest(authorization.slice(7).trim()), digest(token))
}
