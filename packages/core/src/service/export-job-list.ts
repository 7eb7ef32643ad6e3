/**
 * The lists of an account's export jobs (`GET /analytics/exports`) and of their completion
 * webhooks with every delivery attempt (`GET /settings/webhook-deliveries`), newest first,
 * paged like the design list. Both read the job store's `listByOwner`: the attempts are on the
 * job records already (the job handler appends one per delivery attempt), so nothing else is
 * recorded. The store lists the newest 1000 jobs of an account (`MAX_LISTED_JOBS`).
 *
 * @module service/export-job-list
 */
import type * as z from 'zod'
import type { JobRecord, JobStore } from '../contracts/job-queue.js'
import type { ExportWebhookDeliverySchema } from '../contracts/schemas/export-jobs.js'
import { ListExportJobsParamsSchema } from '../contracts/schemas/export-jobs.js'
import { invalidRequest } from '../_internal/messages.js'
import { toLithoIssues } from '../design/validate-design.js'
import type { BearerAccount } from './bearer-services.js'
import { toView, type ExportJobView } from './export-job-view.js'
import { DEFAULT_PAGE_SIZE, parseQuery } from './query.js'

/** A page of a list: `docs`, with `page`, `totalPages` (at least 1), `hasNextPage`, `totalDocs` and `limit`, as the design list. */
export interface Paginated<T> {
  docs: T[]
  page: number
  totalPages: number
  hasNextPage: boolean
  totalDocs: number
  limit: number
}

/** An item of the webhook-delivery list, e.g. `{ exportId, designId, status: 'succeeded', url, state: 'delivered', attempts: [{ at, status: 200 }], createdAt }`. */
export type ExportWebhookDelivery = z.infer<typeof ExportWebhookDeliverySchema>

/** The parsed query of the lists, e.g. `{ page: 1, limit: 10 }`. */
export interface ListExportJobsParams {
  page: number
  limit: number
}

/**
 * Reads `$page` and `$limit` of a list's query.
 *
 * @throws LithoError `ERR_INVALID_REQUEST` naming the parameter (out of range, not a whole number, given twice).
 * @example parseListExportJobsParams(new URLSearchParams('$limit=20')) // { page: 1, limit: 20 }
 */
export function parseListExportJobsParams(query: URLSearchParams): ListExportJobsParams {
  const parsed = parseQuery(query, ListExportJobsParamsSchema, ['$page', '$limit'])
  return { page: parsed.$page ?? 1, limit: parsed.$limit ?? DEFAULT_PAGE_SIZE }
}

/** A page of the account's job records, newest first (only those with a webhook when `webhooks`). */
async function listJobs(jobs: JobStore, request: { account: BearerAccount; page: number; limit: number }, webhooks: boolean): Promise<Paginated<JobRecord>> {
  const { account, page, limit } = request
  const checked = ListExportJobsParamsSchema.safeParse({ $page: page, $limit: limit })
  if (!checked.success) throw invalidRequest(toLithoIssues(checked.error))
  if (typeof jobs.listByOwner !== 'function') throw new TypeError(`Expected the job store ${jobs.name} to have listByOwner (optional in the port) to list jobs`)
  const { items, total } = await jobs.listByOwner(account.id, { offset: (page - 1) * limit, limit, ...(webhooks ? { webhooks } : {}) })
  const totalPages = Math.max(1, Math.ceil(total / limit))
  return { docs: items, page, totalPages, hasNextPage: page < totalPages, totalDocs: total, limit }
}

/**
 * A page of the account's export jobs, newest first, each as `GET /analytics/exports/{exportId}`
 * shows it. With none the answer is page 1 of 1, empty; a page past the last is empty.
 *
 * @throws LithoError `ERR_INVALID_REQUEST` for a `page` or `limit` out of range; TypeError when the job store cannot list.
 * @example const { docs } = await listExportJobs({ jobs }, { account: { id: 'u_1' }, page: 1, limit: 10 })
 */
export async function listExportJobs(services: { jobs: JobStore }, request: { account: BearerAccount; page: number; limit: number }): Promise<Paginated<ExportJobView>> {
  const page = await listJobs(services.jobs, request, false)
  return { ...page, docs: page.docs.map(toView) }
}

/**
 * A page of the account's completion webhooks, newest export first, each with the export it
 * belongs to and every delivery attempt (time, the receiver's status, the error).
 *
 * @throws LithoError `ERR_INVALID_REQUEST` for a `page` or `limit` out of range; TypeError when the job store cannot list.
 * @example const { docs } = await listWebhookDeliveries({ jobs }, { account: { id: 'u_1' }, page: 1, limit: 10 })
 */
export async function listWebhookDeliveries(services: { jobs: JobStore }, request: { account: BearerAccount; page: number; limit: number }): Promise<Paginated<ExportWebhookDelivery>> {
  const page = await listJobs(services.jobs, request, true)
  const docs = page.docs.flatMap((record): ExportWebhookDelivery[] => {
    const webhook = record.webhook
    if (!webhook) return []
    return [
      {
        exportId: record.id,
        designId: record.designId,
        status: record.status,
        url: webhook.url,
        state: webhook.state,
        attempts: webhook.attempts,
        ...(webhook.nextAttemptAt ? { nextAttemptAt: webhook.nextAttemptAt } : {}),
        createdAt: record.createdAt,
        ...(record.finishedAt ? { finishedAt: record.finishedAt } : {}),
      },
    ]
  })
  return { ...page, docs }
}
