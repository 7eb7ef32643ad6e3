/**
 * `POST /designs/v2/:id/export/jobs` (202, a durable job) and `GET /analytics/exports/:exportId`
 * (its record), over `enqueueExportJob` and `getExportJob` of `@litho/core`; and the webhook
 * secret routes, when completion webhooks are configured.
 *
 * @module app/export-job-routes
 */
import { enqueueExportJob, getExportJob, parseExportJobRequest, type ExportJobServices } from '@litho/core'
import { getRouterParam, type H3 } from 'h3'
import type { BearerRoute } from './bearer-routes.js'
import { bearerPreflight } from './bearer.js'
import { readJsonBody } from './read-json-body.js'
import { json, quotaHeaders } from './respond.js'
import { mountWebhookSecretRoutes } from './webhook-routes.js'

/** What the job routes need. */
export interface ExportJobRouteOptions {
  route: BearerRoute
  services: ExportJobServices
  /** Largest JSON body, in bytes. */
  maxBodyBytes: number
}

/** Adds the job routes (and, with webhooks, the webhook-secret routes). */
export function mountExportJobRoutes(app: H3, options: ExportJobRouteOptions): void {
  const { route, services, maxBodyBytes } = options
  app.options('/designs/v2/:id/export/jobs', () => bearerPreflight('POST, OPTIONS'))
  app.post(
    '/designs/v2/:id/export/jobs',
    route('write', async (event, account) => {
      const body = await readJsonBody(event.req, maxBodyBytes)
      const request = parseExportJobRequest(event.url.searchParams, body)
      const { body: ack, quota } = await enqueueExportJob(services, { account, id: getRouterParam(event, 'id') ?? '', request })
      return json(ack, 202, { ...quotaHeaders(quota), location: ack.pollUrl })
    }),
  )
  app.options('/analytics/exports/:exportId', () => bearerPreflight('GET, OPTIONS'))
  app.get(
    '/analytics/exports/:exportId',
    route('read', async (event, account) => json(await getExportJob(services, { account, id: getRouterParam(event, 'exportId') ?? '' }), 200, { 'cache-control': 'no-store' })),
  )
  if (services.webhooks) mountWebhookSecretRoutes(app, { route, secrets: services.webhooks.secrets })
}
