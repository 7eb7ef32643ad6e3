/**
 * CORS of the bearer routes (and the discovery documents and `/api/mcp`): every answer may be
 * read by a browser page of any origin (`*`: the routes take a bearer token, never cookies),
 * and preflights are answered before authentication.
 *
 * Our own middleware rather than h3's `handleCors`, which would change today's answers: it joins
 * methods with "," (we send "GET, OPTIONS"), adds `Vary`, sends no `Access-Control-Expose-Headers`
 * and no `Max-Age` unless asked, and answers only an OPTIONS that carries `Origin` and
 * `Access-Control-Request-Method` (we answer every OPTIONS of these routes with 204).
 *
 * @module app/cors
 */
import type { Middleware } from 'h3'

/** Headers of every bearer-route response, so browser clients can read them. */
export const BEARER_CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'WWW-Authenticate, Retry-After, Location, X-Quota-Limit, X-Quota-Remaining, X-Quota-Reset',
})

/** Request headers a preflight allows: the token, JSON bodies, and the MCP transport's own. */
const ALLOW_HEADERS = 'Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name'

/** Seconds a browser may keep a preflight answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600

/** The answer to a CORS preflight of a bearer route (never authenticated), e.g. `bearerPreflight('GET, OPTIONS')`. */
export function bearerPreflight(methods: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...BEARER_CORS_HEADERS,
      'access-control-allow-methods': methods,
      'access-control-allow-headers': ALLOW_HEADERS,
      'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
    },
  })
}

/** What {@link bearerCors} adds. */
export interface BearerCorsOptions {
  /** The methods a preflight allows, e.g. `GET, POST, OPTIONS`. */
  methods: string
  /** Response headers exposed besides {@link BEARER_CORS_HEADERS}' (an export's file name and warnings). */
  expose?: string
  /**
   * `Cache-Control: no-store` unless the answer already says no-store: each answer of a bearer
   * route is one user's data (or a key's secret) that no browser or shared cache may keep
   * (RFC 6750 §5.3, RFC 9111 §5.2.2.5).
   */
  noStore: boolean
}

/**
 * The CORS middleware of a route: an OPTIONS request is answered as a preflight (for routes of
 * every method, like `/api/mcp`); every other answer, errors included, gets the CORS headers.
 *
 * @example app.get('/designs/v2', handler, { middleware: [bearerCors({ methods: 'GET, OPTIONS', noStore: true })] })
 */
export function bearerCors(options: BearerCorsOptions): Middleware {
  const expose = options.expose ? `${BEARER_CORS_HEADERS['access-control-expose-headers']}, ${options.expose}` : BEARER_CORS_HEADERS['access-control-expose-headers']!
  return async (event, next) => {
    if (event.req.method === 'OPTIONS') return bearerPreflight(options.methods)
    const response = (await next()) as Response
    response.headers.set('access-control-allow-origin', '*')
    response.headers.set('access-control-expose-headers', expose)
    if (options.noStore && !/\bno-store\b/i.test(response.headers.get('cache-control') ?? '')) response.headers.set('cache-control', 'no-store')
    return response
  }
}
