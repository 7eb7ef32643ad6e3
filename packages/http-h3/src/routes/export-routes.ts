/**
 * Exports of the signed-in owner's designs (docs/exports-and-jobs.md, bearer `write`): at once as bytes
 * (`/export`), to a public stored file (`/export/driver-upload`) or a private one behind an
 * expiring URL (`/export/signed-url`), each one metered render refunded when it fails; and, with
 * export jobs, queued in the background (`/export/jobs`) and polled (`/analytics/exports/:id`).
 *
 * @module routes/export-routes
 */
import {
  EXPORT_JOB_MAX_RUNS,
  EXPORT_RESERVED_KEYS,
  ExportJobAckSchema,
  ExportParamsSchema,
  enqueueExportJob,
  exportDesign,
  exportOverrides,
  getExportJob,
  ListExportJobsParamsSchema,
  MAX_LISTED_JOBS,
  listExportJobs,
  parseListExportJobsParams,
  parseExportJobRequest,
  parseExportParams,
  type ExportDelivery,
} from '@litho/core'
import * as z from 'zod'
import { json } from '../app/errors.js'
import { quotaHeaders, renderOutcomeResponse } from '../app/render-response.js'
import { ExportJobSchema, ExportSignedResultSchema, ExportUploadResultSchema, PaginatedExportJobsSchema } from '../openapi/components.js'
import { bearerErrors, commonErrors, errorBody, jsonResponse, quotaResponseHeaders, STORAGE_FULL } from '../openapi/responses.js'
import type { AppContext } from './app-context.js'
import { defineRoute, type OpenApiObject, type RouteDefinition } from './define-route.js'
import { designIdParams, hasVerifier } from './design-routes.js'
import { IMAGE_CONTENT, overridesParam } from './render-routes.js'

/** Mounted with a bearer verifier and export jobs. */
export const hasJobs = (app: AppContext) => app.verifier !== undefined && app.options.jobs !== undefined

/** Mounted with export jobs whose store can list (`listByOwner`, optional in the port). */
export const hasJobList = (app: AppContext) => hasJobs(app) && typeof app.options.jobs!.jobs.listByOwner === 'function'

/** The 400 of the job lists. */
export const listParamsError = errorBody('`$page` is not a whole number ≥ 1, or `$limit` not one from 1 to 100 (or either is given twice); `message` names it.')

const reserved = EXPORT_RESERVED_KEYS.map((k) => `\`${k}\``).join(', ')
const exportDescription = `One render against the quota, consumed before rendering and refunded if the export fails; a 429 when the quota is used up. Bad input (400, 404) costs nothing. Parameters may also be given in the JSON body (\`draft\` as a JSON boolean there); the query wins. The body's other keys are overrides, after the reserved keys (${reserved}) are stripped; override dot-paths are also accepted in the query. Without \`draft\`, the published version is exported (a design never published is a 404 saying to pass \`draft=true\`).`
const exportOverridesParam = { ...overridesParam, description: 'Dynamic-field overrides as `<component_key>.<field>=<value>`; body overrides win. Keys that name nothing are ignored and reported in `X-Litho-Ignored-Overrides`.' }
const exportBody = { required: false, content: { 'application/json': { schema: z.record(z.string(), z.unknown()).meta({ description: 'Overrides (dot-paths or nested) and the parameters `format`, `quality`, `variation`, `draft`, `expiresIn`.' }) } } }
const exportHeaders = {
  ...quotaResponseHeaders,
  'X-Litho-Source': { description: 'Which version was exported: `published` or `draft`.', schema: { enum: ['published', 'draft'] } },
  'X-Litho-Ignored-Overrides': { description: 'Comma-separated, percent-encoded override keys that were ignored.', schema: { type: 'string' } },
  'X-Litho-Warnings': { description: 'Number of render warnings.', schema: { type: 'integer' } },
}
const exportErrors = {
  '400': errorBody('A parameter or the body is invalid (`message` names it), an override value is invalid for its field, or the variation is unknown (`available` lists the valid ones).'),
  ...bearerErrors,
  '404': errorBody('No design of yours has this id, or it was never published and `draft` is not true.'),
  '413': errorBody('The body is larger than the limit (2 MiB by default).'),
  '422': errorBody('A remote image or font the design needs could not be fetched or decoded (refunded).'),
  '429': commonErrors['429'],
  '500': errorBody('The render failed (refunded).'),
  '503': commonErrors['503'],
}
const storedForbidden = { ...bearerErrors['403'], description: `${bearerErrors['403'].description} Or: ${STORAGE_FULL}` }
/** The export query parameters; `expiresIn` only where the URL is signed. */
const unsignedParams = ExportParamsSchema.omit({ expiresIn: true })

/** An export route of `delivery`: the bearer `write` check, the JSON body, the render. */
function exportRoute(path: string, delivery: ExportDelivery, doc: Pick<RouteDefinition, 'operationId' | 'summary' | 'description' | 'query' | 'responses'>): RouteDefinition {
  return defineRoute({
    method: 'POST',
    path,
    server: 'base',
    auth: { kind: 'bearer', scope: 'write' },
    // Headers of an export a browser client may read, besides the bearer ones.
    cors: { kind: 'bearer', expose: 'Content-Disposition, X-Litho-Ignored-Overrides, X-Litho-Warnings, X-Litho-Variation, X-Litho-Source' },
    body: { kind: 'json' },
    when: hasVerifier,
    tags: ['exports'],
    params: designIdParams,
    requestBody: exportBody,
    ...doc,
    async handler({ app, account, event, body, param }) {
      const id = param('id')
      const params = parseExportParams(event.url.searchParams, body)
      // Query overrides (dot paths), then the body without its reserved keys: the body wins.
      const overrides = [event.url.searchParams, exportOverrides(body)]
      const result = await exportDesign(app.services, { account, id, delivery, params, overrides })
      return renderOutcomeResponse(result, { name: id, disposition: 'attachment', headers: { 'x-litho-source': result.source } })
    },
  })
}

/** `POST /designs/v2/:id/export`: the image bytes. */
export const exportRouteStream = exportRoute('/designs/v2/:id/export', 'stream', {
  operationId: 'exportDesign',
  summary: 'Export one of your designs as image bytes',
  description: `${exportDescription} Nothing is stored.`,
  query: [unsignedParams, exportOverridesParam],
  responses: {
    '200': {
      description: 'The image.',
      headers: { ...exportHeaders, 'X-Litho-Variation': { description: 'The size rendered: `master` or the variation id.', schema: { type: 'string' } }, 'Content-Disposition': { description: '`attachment; filename="<id>.<ext>"`.', schema: { type: 'string' } } },
      content: IMAGE_CONTENT,
    },
    ...exportErrors,
  },
})

/** `POST /designs/v2/:id/export/driver-upload`: a public stored file. */
export const exportRouteHosted = exportRoute('/designs/v2/:id/export/driver-upload', 'hosted', {
  operationId: 'exportDesignToUpload',
  summary: 'Export one of your designs to a public stored file',
  description: `${exportDescription} The file is stored publicly; its URL needs no credentials.`,
  query: [unsignedParams, exportOverridesParam],
  responses: { '200': jsonResponse('The stored export.', ExportUploadResultSchema, exportHeaders), ...exportErrors, '403': storedForbidden },
})

/** `POST /designs/v2/:id/export/signed-url`: a private stored file and its expiring URL. */
export const exportRouteSigned = exportRoute('/designs/v2/:id/export/signed-url', 'signed', {
  operationId: 'exportDesignToSignedUrl',
  summary: 'Export one of your designs to a private stored file behind an expiring signed URL',
  description: `${exportDescription} The file is stored privately; the signed URL works until \`expiresAt\`.`,
  query: [ExportParamsSchema, exportOverridesParam],
  responses: { '200': jsonResponse('The stored export and its signed URL.', ExportSignedResultSchema, exportHeaders), ...exportErrors, '403': storedForbidden },
})

const deliveryParam: OpenApiObject = { name: 'delivery', in: 'query', required: false, description: 'Required, in the query or the body: `hosted` (a public URL) or `signed` (an expiring signed URL).', schema: { enum: ['hosted', 'signed'] } }
const webhookUrlParam: OpenApiObject = { name: 'webhookUrl', in: 'query', required: false, description: 'Usually in the body: an https URL to POST the finished job to, signed (Standard Webhooks; docs/webhooks.md).', schema: { type: 'string', format: 'uri', maxLength: 2048 } }

/** `POST /designs/v2/:id/export/jobs`: a durable export job (202). */
export const queueExportJobRoute = defineRoute({
  method: 'POST',
  path: '/designs/v2/:id/export/jobs',
  server: 'base',
  auth: { kind: 'bearer', scope: 'write' },
  cors: { kind: 'bearer' },
  body: { kind: 'json' },
  when: hasJobs,
  operationId: 'queueExportJob',
  tags: ['exports'],
  summary: 'Queue an export of one of your designs as a background job',
  description: `The export runs in the background and is stored like \`driver-upload\` (\`delivery=hosted\`) or \`signed-url\` (\`delivery=signed\`); poll \`pollUrl\` for the result, or pass \`webhookUrl\` to be called when it finishes. The request is checked at once (design, parameters, overrides, variation: a 400 or 404 costs nothing); then one render is consumed and the job is queued. A job that finally fails is refunded once; transient failures are retried, at most ${EXPORT_JOB_MAX_RUNS} runs. Parameters may also be given in the JSON body (the query wins). Overrides: dot-paths in the query, then the JSON body (dot-paths or nested; the body wins), whose keys other than the reserved ones (${reserved}). Keys that name nothing are ignored without a report. The design (published, or the draft with \`draft\`) is read again when the job runs. Mounted when the app has export jobs (\`litho serve\` has).`,
  params: designIdParams,
  query: [deliveryParam, ExportParamsSchema, webhookUrlParam, exportOverridesParam],
  requestBody: {
    required: false,
    content: {
      'application/json': {
        schema: z
          .looseObject({ delivery: z.enum(['hosted', 'signed']).optional(), webhookUrl: z.url().max(2048).optional() })
          .meta({ description: 'Overrides (dot-paths or nested) and the parameters `delivery`, `format`, `quality`, `variation`, `draft`, `expiresIn` and `webhookUrl`.' }),
      },
    },
  },
  responses: {
    '202': jsonResponse('Queued.', ExportJobAckSchema, { Location: { description: 'The `pollUrl`.', schema: { type: 'string' } }, ...quotaResponseHeaders }),
    '400': errorBody('`delivery` is missing or not `hosted`/`signed`, `expiresIn` is given with `hosted`, another parameter or the body is invalid (`message` names it), `webhookUrl` is refused (not https, credentials, a blocked address, or webhooks not configured), an override value is invalid for its field, or the variation is unknown (`available` lists the valid ones).'),
    ...bearerErrors,
    '403': { ...bearerErrors['403'], description: `${bearerErrors['403'].description} Or: the plan's storage of rendered files is already full (\`ERR_STORAGE_QUOTA\`, \`data.usage\`/\`data.limit\` in bytes; nothing metered). A job whose file no longer fits when it finishes fails with that code (refunded).` },
    '404': errorBody('No design of yours has this id, or it was never published and `draft` is not true.'),
    '413': exportErrors['413'],
    '429': commonErrors['429'],
    '503': errorBody('The job could not be stored or queued (refunded); retry shortly.'),
  },
  async handler({ app, account, event, body, param }) {
    const request = parseExportJobRequest(event.url.searchParams, body)
    const { body: ack, quota } = await enqueueExportJob({ ...app.services, ...app.options.jobs! }, { account, id: param('id'), request })
    return json(ack, 202, { ...quotaHeaders(quota), location: ack.pollUrl })
  },
})

/** `GET /analytics/exports/:exportId`: one of the user's export jobs. */
export const getExportJobRoute = defineRoute({
  method: 'GET',
  path: '/analytics/exports/:exportId',
  server: 'base',
  auth: { kind: 'bearer', scope: 'read' },
  cors: { kind: 'bearer' },
  when: hasJobs,
  operationId: 'getExportJob',
  tags: ['exports'],
  summary: 'Poll one of your export jobs',
  description: "The job record: its `status` and, once it succeeded, the stored file's `url`; once it failed, `error`. Answered with `Cache-Control: no-store`. Poll every few seconds, or use a webhook.",
  params: z.object({ exportId: z.string().meta({ description: 'The `exportId` of the 202 answer.' }) }),
  responses: {
    '200': jsonResponse('The job.', ExportJobSchema),
    ...bearerErrors,
    '404': errorBody("No export job of yours has this id (another account's job is not found either)."),
  },
  handler: async ({ app, account, param }) => json(await getExportJob({ ...app.services, ...app.options.jobs! }, { account, id: param('exportId') }), 200, { 'cache-control': 'no-store' }),
})

/** `GET /analytics/exports`: the user's export jobs, newest first. */
export const listExportJobsRoute = defineRoute({
  method: 'GET',
  path: '/analytics/exports',
  server: 'base',
  auth: { kind: 'bearer', scope: 'read' },
  cors: { kind: 'bearer' },
  when: hasJobList,
  operationId: 'listExportJobs',
  tags: ['exports'],
  summary: 'List your export jobs, newest first, a page at a time',
  description: `Each job as \`GET /analytics/exports/{exportId}\` shows it (status, the file's \`url\` once it succeeded, \`error\` once it failed, the webhook and its attempts). Paged like \`/designs/v2\`: \`$page\` from 1, \`$limit\` 1-100, \`totalPages\` and \`hasNextPage\` in the body. The newest ${MAX_LISTED_JOBS} jobs of the account are listed; older ones stay readable by id. Answered with \`Cache-Control: no-store\`. Mounted when the app has export jobs whose store can list (\`litho serve\`'s can).`,
  query: [ListExportJobsParamsSchema],
  responses: {
    '200': jsonResponse('A page of export jobs.', PaginatedExportJobsSchema, undefined, {
      docs: [
        {
          success: true,
          exportId: 'exp_DTu-vTZpVEJBJMZf',
          status: 'succeeded',
          designId: 'd_3Jx9Qm2LpZ7a',
          delivery: 'hosted',
          format: 'png',
          createdAt: '2026-11-23T17:33:24.900Z',
          updatedAt: '2026-11-23T17:33:25.371Z',
          startedAt: '2026-11-23T17:33:24.950Z',
          finishedAt: '2026-11-23T17:33:25.371Z',
          attempts: 1,
          url: 'https://files.example.com/u_ann/exp_DTu-vTZpVEJBJMZf.png',
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
  handler: async ({ app, account, event }) => listExportJobs(app.options.jobs!, { account, ...parseListExportJobsParams(event.url.searchParams) }),
})
