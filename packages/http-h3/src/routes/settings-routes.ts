/**
 * The signed-in user's usage history, render API keys and webhook signing secret
 * (docs/http-reference.md, bearer): `GET /analytics/api`, `GET|POST /settings/api-keys`, `DELETE
 * /settings/api-keys/:id`, and with webhooks `GET /settings/webhook-secret` and `POST
 * /settings/webhook-secret/rotate`.
 *
 * Both webhook-secret routes need the `write` scope, reading included: the secret lets whoever
 * holds it forge webhooks that the owner's receiver will accept as Litho's, so a read-only token
 * (a dashboard, an analytics integration) must not be able to obtain it (docs/webhooks.md).
 *
 * @module routes/settings-routes
 */
import {
  ApiKeyListSchema,
  CreateKeyBodySchema,
  CreatedApiKeySchema,
  DEFAULT_USAGE_DAYS,
  ListKeysParamsSchema,
  MAX_API_KEYS,
  MAX_USAGE_BUCKETS,
  UsageParamsSchema,
  UsageResponseSchema,
  createApiKey,
  getUsage,
  invalidRequest,
  listApiKeys,
  listWebhookDeliveries,
  ListExportJobsParamsSchema,
  parseListExportJobsParams,
  parseCreateKeyBody,
  parseListKeysParams,
  parseUsageParams,
  revokeApiKey,
} from '@litho/core'
import { createRenderKey } from '@litho/auth-adapters'
import * as z from 'zod'
import { json } from '../app/errors.js'
import { DeletedApiKeySchema, PaginatedWebhookDeliveriesSchema, WebhookSecretSchema } from '../openapi/components.js'
import { bearerErrors, errorBody, jsonResponse } from '../openapi/responses.js'
import type { AppContext } from './app-context.js'
import { defineRoute } from './define-route.js'
import { hasVerifier } from './design-routes.js'
import { hasJobList, hasJobs, listParamsError } from './export-routes.js'

/** Largest body of `POST /settings/api-keys`: a name fits in far less. */
const KEY_BODY_LIMIT = 64 * 1024

/** `GET /analytics/api`. */
export const usageRoute = defineRoute({
  method: 'GET',
  path: '/analytics/api',
  server: 'base',
  auth: { kind: 'bearer', scope: 'read' },
  cors: { kind: 'bearer' },
  when: hasVerifier,
  operationId: 'getUsage',
  tags: ['analytics'],
  summary: 'Your render counts over time',
  description: `Historical usage: renders (net of refunds) per UTC bucket over \`[start, end)\`, every bucket included. Defaults: the last ${DEFAULT_USAGE_DAYS} days, by day. At most ${MAX_USAGE_BUCKETS} buckets per request. Also the stored bytes and the render quota now (\`quota\`: limit, used, remaining, resetAt, as the \`X-Quota-*\` headers of a render), read without spending a render.`,
  query: [UsageParamsSchema],
  responses: {
    '200': jsonResponse('The buckets and their total.', UsageResponseSchema),
    '400': errorBody('`start` or `end` is not an ISO 8601 date-time, `start` is not before `end`, or `groupBy` is unknown or too fine for the range; `message` names the parameter.'),
    ...bearerErrors,
  },
  handler: ({ app, account, event }) => {
    const now = app.clock.now()
    return getUsage(app.services, { account, now, ...parseUsageParams(event.url.searchParams, now) })
  },
})

/** `GET /settings/api-keys`. */
export const listApiKeysRoute = defineRoute({
  method: 'GET',
  path: '/settings/api-keys',
  server: 'base',
  auth: { kind: 'bearer', scope: 'read' },
  cors: { kind: 'bearer' },
  when: hasVerifier,
  operationId: 'listApiKeys',
  tags: ['settings'],
  summary: 'List your render API keys, newest first, a page at a time',
  description: "Never shows a key's secret or its hash; `prefix` helps recognise a key. `lastUsedAt` is approximate: a render writes it at most once a minute per key, so it may be up to a minute old. Paged like `/designs/v2`: `$page` from 1, `totalPages` and `hasNextPage` in the body.",
  query: [ListKeysParamsSchema],
  responses: {
    '200': jsonResponse('The keys.', ApiKeyListSchema),
    '400': errorBody('`$page` is not a whole number ≥ 1, or `$limit` not one from 1 to 100 (or either is given twice).'),
    ...bearerErrors,
  },
  handler: ({ app, account, event }) => listApiKeys(app.services, { account, ...parseListKeysParams(event.url.searchParams) }),
})

/** `POST /settings/api-keys`. */
export const createApiKeyRoute = defineRoute({
  method: 'POST',
  path: '/settings/api-keys',
  server: 'base',
  auth: { kind: 'bearer', scope: 'write' },
  cors: { kind: 'bearer' },
  body: { kind: 'json', limit: KEY_BODY_LIMIT },
  when: hasVerifier,
  operationId: 'createApiKey',
  tags: ['settings'],
  summary: 'Create a render API key',
  description: `The answer carries the secret (\`key\`) once; it is never shown again. An account holds at most ${MAX_API_KEYS} keys.`,
  requestBody: { required: false, content: { 'application/json': { schema: CreateKeyBodySchema } } },
  responses: {
    '201': jsonResponse('The new key, with its secret.', CreatedApiKeySchema),
    '400': errorBody(`The body is not a JSON object, \`name\` is invalid, or the account already holds ${MAX_API_KEYS} keys.`),
    ...bearerErrors,
    '413': errorBody('The body is larger than 64 KiB.'),
  },
  async handler({ app, account, body }) {
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) throw invalidRequest([{ path: 'body', message: 'expected a JSON object like {"name":"CI"}' }])
    const { name } = parseCreateKeyBody(body ?? {})
    return json(await createApiKey(app.services, { account, name, newKey: createRenderKey }), 201)
  },
})

/** `DELETE /settings/api-keys/:id`. */
export const deleteApiKeyRoute = defineRoute({
  method: 'DELETE',
  path: '/settings/api-keys/:id',
  server: 'base',
  auth: { kind: 'bearer', scope: 'write' },
  cors: { kind: 'bearer' },
  when: hasVerifier,
  operationId: 'deleteApiKey',
  tags: ['settings'],
  summary: 'Delete a render API key',
  description: 'The key stops authenticating renders at once and is no longer listed.',
  params: z.object({ id: z.string().meta({ description: "The key's `_id` (from the key list)." }) }),
  responses: {
    '200': jsonResponse('Deleted.', DeletedApiKeySchema),
    ...bearerErrors,
    '404': errorBody('No key of yours has this id.'),
  },
  handler: ({ app, account, param }) => revokeApiKey(app.services, { account, id: param('id') }),
})

/** Mounted with export jobs that have completion webhooks. */
const hasWebhooks = (app: AppContext) => hasJobs(app) && app.options.jobs?.webhooks !== undefined

/** The secrets of the app's webhooks. */
const secretsOf = (app: AppContext) => app.options.jobs!.webhooks!.secrets

// A secret must not be kept by a browser or proxy cache.
const secretResponse = (secret: string) => json({ success: true, secret }, 200, { 'cache-control': 'no-store' })

/** `GET /settings/webhook-secret`: created on first use. */
export const getWebhookSecretRoute = defineRoute({
  method: 'GET',
  path: '/settings/webhook-secret',
  server: 'base',
  // `write`, not `read`: see the module comment.
  auth: { kind: 'bearer', scope: 'write' },
  cors: { kind: 'bearer' },
  when: hasWebhooks,
  operationId: 'getWebhookSecret',
  tags: ['settings'],
  summary: 'Get your webhook signing secret',
  description: 'The secret that signs your completion webhooks; created on first use. Needs `write`, reading included: whoever holds it can forge webhooks. Answered with `Cache-Control: no-store`. Mounted with export jobs that have webhooks (`litho serve` has).',
  responses: { '200': jsonResponse('The secret.', WebhookSecretSchema), ...bearerErrors },
  handler: async ({ app, account }) => secretResponse(await secretsOf(app).get(account.id)),
})

/** `POST /settings/webhook-secret/rotate`: a new secret replaces the old one at once. */
export const rotateWebhookSecretRoute = defineRoute({
  method: 'POST',
  path: '/settings/webhook-secret/rotate',
  server: 'base',
  auth: { kind: 'bearer', scope: 'write' },
  cors: { kind: 'bearer' },
  when: hasWebhooks,
  operationId: 'rotateWebhookSecret',
  tags: ['settings'],
  summary: 'Replace your webhook signing secret',
  description: 'A new secret replaces the old one at once, with no overlap: every delivery attempt from now on, retries of older events included, is signed with the new one. Answered with `Cache-Control: no-store`. Mounted with export jobs that have webhooks (`litho serve` has).',
  responses: { '200': jsonResponse('The new secret.', WebhookSecretSchema), ...bearerErrors },
  handler: async ({ app, account }) => secretResponse(await secretsOf(app).rotate(account.id)),
})

/** `GET /settings/webhook-deliveries`: the user's completion webhooks and their attempts. */
export const listWebhookDeliveriesRoute = defineRoute({
  method: 'GET',
  path: '/settings/webhook-deliveries',
  server: 'base',
  auth: { kind: 'bearer', scope: 'read' },
  cors: { kind: 'bearer' },
  when: (app) => hasWebhooks(app) && hasJobList(app),
  operationId: 'listWebhookDeliveries',
  tags: ['settings'],
  summary: 'List your completion webhooks and their delivery attempts, newest first',
  description:
    "One item per export job queued with a `webhookUrl`: the export it belongs to (`exportId`, `designId`, the job's `status`), where it is sent, its `state` and every attempt (time, the receiver's HTTP status, the error), oldest attempt first, with `nextAttemptAt` while a retry is due. The attempts are those of the job record (`GET /analytics/exports/{exportId}` shows the same). Paged like `/designs/v2`. Needs `read` only: it shows no secret. Mounted with export jobs that have webhooks (`litho serve` has).",
  query: [ListExportJobsParamsSchema],
  responses: {
    '200': jsonResponse('A page of webhooks.', PaginatedWebhookDeliveriesSchema, undefined, {
      docs: [
        {
          exportId: 'exp_DTu-vTZpVEJBJMZf',
          designId: 'd_3Jx9Qm2LpZ7a',
          status: 'succeeded',
          url: 'https://example.com/hooks',
          state: 'delivered',
          attempts: [
            { at: '2026-11-23T17:33:25.400Z', status: 500, error: 'HTTP 500' },
            { at: '2026-11-23T17:33:30.410Z', status: 200 },
          ],
          createdAt: '2026-11-23T17:33:24.900Z',
          finishedAt: '2026-11-23T17:33:25.371Z',
        },
      ],
      page: 1,
      totalPages: 1,
      hasNextPage: false,
      totalDocs: 1,
      limit: 10,
    }),
    '400': listParamsError,
    ...bearerErrors,
  },
  handler: ({ app, account, event }) => listWebhookDeliveries(app.options.jobs!, { account, ...parseListExportJobsParams(event.url.searchParams) }),
})
