/**
 * The synchronous export endpoints of interface.md §4 ("Export endpoints", bearer, the signed-in
 * owner of the design): `POST /designs/v2/:id/export` (bytes), `…/export/driver-upload` (a
 * public stored file) and `…/export/signed-url` (a private stored file and an expiring URL).
 * Each is one metered render, refunded when it fails (`exportDesign` of `@litho/core`).
 *
 * @module app/export-routes
 */
import { exportDesign, exportOverrides, parseExportParams, type ExportDelivery, type ExportDesignResult, type ExportServices } from '@litho/core'
import { getRouterParam, type H3, type H3Event } from 'h3'
import type { BearerRoute } from './bearer-routes.js'
import { BEARER_CORS_HEADERS, bearerPreflight } from './bearer.js'
import { readJsonBody } from './read-json-body.js'
import { renderOutcomeResponse } from './respond.js'

/** What the export routes need: the bearer wrapper of `mountBearerRoutes`, the ports, the body limit. */
export interface ExportRouteOptions {
  /** Bearer auth, CORS and error mapping (see `BearerRoute`). */
  route: BearerRoute
  services: ExportServices
  /** Largest JSON body, in bytes. */
  maxBodyBytes: number
}

/** The export paths and how each delivers. */
export const EXPORT_ROUTES: ReadonlyArray<readonly [path: string, delivery: ExportDelivery]> = Object.freeze([
  ['/designs/v2/:id/export', 'stream'],
  ['/designs/v2/:id/export/driver-upload', 'hosted'],
  ['/designs/v2/:id/export/signed-url', 'signed'],
] as const)

/** Headers of an export a browser client may read, besides the bearer ones. */
const EXPOSED = 'Content-Disposition, X-Litho-Ignored-Overrides, X-Litho-Warnings, X-Litho-Variation, X-Litho-Source'

/**
 * Adds the three synchronous export routes and their CORS preflights. Each needs scope `write`
 * (an export consumes quota); the body (optional) is a JSON object of overrides and parameters.
 *
 * @example mountExportRoutes(app, { route, services: { designs, files, meter, renderer, clock }, maxBodyBytes: 2 * 1024 * 1024 })
 */
export function mountExportRoutes(app: H3, options: ExportRouteOptions): void {
  const { route, services, maxBodyBytes } = options
  for (const [path, delivery] of EXPORT_ROUTES) {
    app.options(path, () => bearerPreflight('POST, OPTIONS'))
    const handler = route('write', async (event, account) => {
      const id = getRouterParam(event, 'id') ?? ''
      const body = await readJsonBody(event.req, maxBodyBytes)
      const params = parseExportParams(event.url.searchParams, body)
      // Query overrides (dot paths), then the body without its reserved keys: the body wins.
      const overrides = [event.url.searchParams, exportOverrides(body)]
      return toExportResponse(await exportDesign(services, { account, id, delivery, params, overrides }), id)
    })
    app.post(path, async (event: H3Event) => {
      const response = await handler(event)
      response.headers.set('access-control-expose-headers', `${BEARER_CORS_HEADERS['access-control-expose-headers']}, ${EXPOSED}`)
      return response
    })
  }
}

/** Bytes for `/export`; the JSON result for `driver-upload` and `signed-url`. Never cached. */
function toExportResponse(result: ExportDesignResult, id: string): Response {
  return renderOutcomeResponse(result, { name: id, disposition: 'attachment', headers: { 'x-litho-source': result.source } })
}
