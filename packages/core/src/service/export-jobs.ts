/**
 * Durable export jobs (`POST /designs/v2/{id}/export/jobs`, `GET /analytics/exports/{id}`) and
 * their completion webhooks, transport-free.
 *
 * - **Enqueue:** the request is validated and the design prepared (bad input costs nothing),
 *   one render is consumed (429 when the quota is used up), the job record is stored
 *   (`queued`) and handed to the queue.
 * - **Run** ({@link createExportJobHandler}): `queued → processing → succeeded | failed`. A
 *   transient failure (render queue full, storage down) goes back to `queued` and is retried,
 *   at most {@link EXPORT_JOB_MAX_RUNS} runs; a job that ends `failed` is refunded exactly once.
 *   A run that was cut off (crash, stop) is run again; a job already finished is never
 *   rendered again, so it completes exactly once.
 * - **Webhook:** when the job has a `webhookUrl`, the finished job is POSTed to it, signed
 *   (Standard Webhooks), retried on the {@link WEBHOOK_RETRY_SCHEDULE_MS} schedule; every
 *   attempt is recorded on the job. Delivery is at-least-once.
 *
 * @module service/export-jobs
 */
import type { DesignStore } from '../contracts/design-store.js'
import type { FileStore } from '../contracts/file-store.js'
import type { JobOutcome, JobQueue, JobRecord, JobStore, QueuedJob } from '../contracts/job-queue.js'
import type { Meter } from '../contracts/meter.js'
import type { RetentionIndex } from '../contracts/retention-index.js'
import { isPlainObject } from '../_internal/is-plain-object.js'
import { LithoError } from '../errors.js'
import { meterRenders, quotaOfGrant } from '../quota/meter-renders.js'
import { assertStorageRoom } from '../quota/meter-storage.js'
import { settleRefund, type RefundSettings } from '../quota/settle-refund.js'
import { PLANS, isPlanId, type PlanId, type PlanTable } from '../quota/plans.js'
import { quotaWindow } from '../quota/window.js'
import type { NetworkPolicy } from '../network/policy.js'
import { DEFAULT_QUALITY } from '../render/defaults.js'
import { WEBHOOK_RETRY_SCHEDULE_MS, nextWebhookDelay } from '../webhooks/retry-schedule.js'
import type { WebhookSecrets } from '../webhooks/secrets.js'
import { webhookUrlProblem, type WebhookSender } from '../webhooks/sender.js'
import { EXPORT_DEFAULT_FORMAT, exportOverrides, parseExportParams, prepareExport, type ExportParams } from './export-design.js'
import { DEFAULT_EXPIRES_IN_MINUTES, invalidRequest } from './params.js'
import { exportPollPath, getExportJob, webhookPayload, webhookPayloadAt, type ExportJobView } from './export-job-view.js'
import { newId, renderPreparedDocument, type RendererPort } from './prepare-render.js'
import type { AssetSource } from '../assets/asset-source.js'

export { exportPollPath, getExportJob, webhookPayload, webhookPayloadAt, type ExportJobView }
import { clockOf, type QuotaState } from './services.js'
import { storeRender } from './store-render.js'
import type { Clock } from '../contracts/clock.js'
import { EXPORT_JOB_MAX_RUNS, type ExportJobAckSchema, type ExportJobViewSchema } from '../contracts/schemas/export-jobs.js'
import type * as z from 'zod'

export { EXPORT_JOB_MAX_RUNS, ExportJobAckSchema, ExportJobViewSchema } from '../contracts/schemas/export-jobs.js'

/** The ports export jobs run over. */
export interface ExportJobServices {
  designs: Pick<DesignStore, 'get'>
  files: FileStore
  meter: Meter
  /** Records stored files for the retention sweep (`sweepStoredFiles`). */
  retention?: RetentionIndex
  renderer: RendererPort
  /** Where renders load the assets documents draw (docs/assets.md). @default none */
  assetSource?: AssetSource
  jobs: JobStore
  queue: Pick<JobQueue, 'enqueue'>
  clock?: Clock
  /** The plan table accounts' plans are read from (render limit and window, storage limit). @default PLANS */
  plans?: PlanTable
  /** Where a refund the meter refused is recorded, and who is told (quota/settle-refund). @default retried, then reported */
  refunds?: RefundSettings
  /** Completion webhooks; without them a `webhookUrl` is refused. */
  webhooks?: {
    sender: WebhookSender
    secrets: WebhookSecrets
    /** The address rules of webhook URLs (the same as remote images). */
    policy: NetworkPolicy
    /** @default WEBHOOK_RETRY_SCHEDULE_MS */
    scheduleMs?: readonly number[]
  }
  /** Delay before retrying a transient failure: `baseRetryMs · 2^(run-1)`. @default 2000 */
  baseRetryMs?: number
}

/** What an export job does, as stored in its record's `request`. */
export interface ExportJobRequest {
  delivery: 'hosted' | 'signed'
  params: ExportParams
  /** Overrides from the JSON body (reserved keys stripped). */
  overrides: Record<string, unknown>
  /** The request's query string: its dot-path overrides apply first (reserved names are not overrides). */
  query?: string
  webhookUrl?: string
  /** The owner's plan when the job was queued: its storage limit applies when the file is stored. Absent in jobs queued before it was kept: counted without a limit. */
  plan?: PlanId
  /** The meter window the render was taken in, for its refund. Absent in jobs queued before it was kept: the plan's window of `createdAt`. */
  window?: string
}

/** The override inputs of a job: the query's, then the body's (which win). */
function overridesOf(request: ExportJobRequest): [URLSearchParams, Record<string, unknown>] {
  return [new URLSearchParams(request.query ?? ''), request.overrides]
}

/** The 202 body (docs/http-reference.md, ExportJobAck). */
export interface ExportJobAck {
  success: true
  exportId: string
  status: 'queued'
  pollUrl: string
}


/**
 * Reads an export-job request: the export parameters (query wins over body), `delivery`
 * (required: `hosted` or `signed`; query or body), `expiresIn` only with `signed`, and
 * `webhookUrl` (body or query). Overrides: dot paths in the query, then the rest of the body
 * (the body wins), as on the synchronous exports.
 *
 * @throws LithoError `ERR_INVALID_REQUEST` naming the parameter.
 */
export function parseExportJobRequest(query: URLSearchParams, body?: unknown): ExportJobRequest {
  const params = parseExportParams(query, body)
  const fromBody = isPlainObject(body) ? body : {}
  const delivery = query.get('delivery') ?? fromBody.delivery
  if (delivery !== 'hosted' && delivery !== 'signed')
    throw invalidRequest([{ path: 'delivery', message: `required: "hosted" (a public URL) or "signed" (an expiring URL), received ${delivery === undefined ? 'nothing' : JSON.stringify(delivery)}` }])
  if (delivery === 'hosted' && (query.has('expiresIn') || fromBody.expiresIn !== undefined))
    throw invalidRequest([{ path: 'expiresIn', message: 'applies only to delivery "signed"; a hosted URL does not expire' }])
  const webhookUrl = query.get('webhookUrl') ?? fromBody.webhookUrl
  if (webhookUrl !== undefined && webhookUrl !== null && (typeof webhookUrl !== 'string' || webhookUrl.length === 0 || webhookUrl.length > 2048))
    throw invalidRequest([{ path: 'webhookUrl', message: `expected an https URL of at most 2048 characters, received ${JSON.stringify(webhookUrl).slice(0, 80)}` }])
  const search = query.toString()
  return { delivery, params, overrides: exportOverrides(body), ...(search ? { query: search } : {}), ...(typeof webhookUrl === 'string' ? { webhookUrl } : {}) }
}

/**
 * Queues an export of the owner's design: validated and metered now, rendered by the queue.
 *
 * @throws LithoError `ERR_DESIGN_NOT_FOUND`, `ERR_INVALID_REQUEST` (a bad `webhookUrl`),
 * `ERR_INVALID_OVERRIDE`, `ERR_UNKNOWN_VARIATION`, `ERR_QUOTA_EXCEEDED`, `ERR_STORAGE`
 * (refunded when the job could not be stored or queued).
 * @example
 * const ack = await enqueueExportJob(services, { account: user, id: 'd_7Hq2…', request: parseExportJobRequest(query, body) })
 */
export async function enqueueExportJob(
  services: ExportJobServices,
  input: { account: { id: string; plan: PlanId }; id: string; request: ExportJobRequest },
): Promise<{ body: ExportJobAck; quota: QuotaState }> {
  const { account, request } = input
  if (request.webhookUrl !== undefined) {
    if (!services.webhooks) throw invalidRequest([{ path: 'webhookUrl', message: 'webhooks are not configured on this server' }])
    const problem = webhookUrlProblem(request.webhookUrl, services.webhooks.policy)
    if (problem) throw invalidRequest([{ path: 'webhookUrl', message: problem.problem }])
  }
  // Bad input (design, overrides, variation) is refused before anything is metered.
  await prepareExport(services, { account, id: input.id, params: request.params, overrides: overridesOf(request) })
  // A full storage is refused now, not after a render that could not be kept.
  await assertStorageRoom(services.meter, account, services.plans)
  const now = clockOf(services).now()
  const exportId = newId('exp')
  const grant = await meterRenders(services.meter, { subject: account.id, plan: account.plan, plans: services.plans, id: exportId, now })
  const record: JobRecord = {
    id: exportId,
    ownerId: account.id,
    designId: input.id,
    status: 'queued',
    request: { ...request, plan: account.plan, window: grant.window } as unknown as Record<string, unknown>,
    attempts: 0,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    ...(request.webhookUrl ? { webhook: { url: request.webhookUrl, state: 'pending' as const, attempts: [] } } : {}),
  }
  try {
    await services.jobs.create(record)
    await services.queue.enqueue({ id: exportId })
  } catch (error) {
    await settleRefund(services, grant, 'export-job')
    throw LithoError.isInstance(error) ? error : new LithoError('ERR_STORAGE', `could not queue the export: ${(error as Error).message}`, { cause: error })
  }
  return {
    body: { success: true, exportId, status: 'queued', pollUrl: exportPollPath(exportId) },
    quota: quotaOfGrant(grant),
  }
}

// Failures worth another run: the render queue was full, storage or a backend was down.
const TRANSIENT = new Set(['ERR_RENDER_BUSY', 'ERR_STORAGE'])

/** Code of the error recorded on a job the queue gave up on. */
export const EXPORT_ABANDONED = 'ERR_EXPORT_ABANDONED'

/** The handler of {@link createExportJobHandler}, with the hook the queue calls when it gives up on a job. */
export interface ExportJobHandler {
  (job: QueuedJob): Promise<JobOutcome>
  /**
   * For `JobQueueStartOptions.onGiveUp`: a job the queue gave up on that had not finished is
   * marked `failed` (error {@link EXPORT_ABANDONED} with the queue's reason) and refunded once;
   * a webhook still pending gets one last attempt now, then is marked `failed` if it did not go
   * through (the queue will not run the job again). Idempotent.
   */
  onGiveUp(job: QueuedJob, reason: string): Promise<void>
}

/**
 * The queue handler of export jobs: renders and stores a queued job, then delivers its
 * webhook. Safe to run again for the same job (a finished job is not rendered again). Pass its
 * `onGiveUp` to the queue too, so a job the queue gives up on is failed and refunded.
 *
 * @example
 * const handler = createExportJobHandler(services, onError)
 * fsJobQueue({ dir }).start(handler, { concurrency: 2, onGiveUp: handler.onGiveUp })
 */
export function createExportJobHandler(services: ExportJobServices, report: (error: unknown) => void = () => {}): ExportJobHandler {
  const now = () => clockOf(services).now()
  // A refund that fails is reported where the handler's other errors go, unless told otherwise.
  const refunding = { meter: services.meter, refunds: { report, ...services.refunds } }
  const baseRetryMs = services.baseRetryMs ?? 2000

  async function save(record: JobRecord): Promise<void> {
    record.updatedAt = now().toISOString()
    await services.jobs.update(record)
  }

  /** The window the job's render was taken in: recorded since plans have windows, else the plan's window of `createdAt`. */
  function refundWindow(record: JobRecord): string {
    const request = record.request as unknown as ExportJobRequest
    if (typeof request.window === 'string') return request.window
    const plans: PlanTable = services.plans ?? PLANS
    return quotaWindow(new Date(record.createdAt), isPlanId(request.plan, plans) ? plans[request.plan]!.window : 'month').id
  }

  async function run(record: JobRecord): Promise<JobOutcome | undefined> {
    const request = record.request as unknown as ExportJobRequest
    record.status = 'processing'
    record.attempts += 1
    record.startedAt ??= now().toISOString()
    await save(record)
    try {
      const { prepared } = await prepareExport(services, { account: { id: record.ownerId }, id: record.designId, params: request.params, overrides: overridesOf(request) })
      const rendered = await renderPreparedDocument(services.renderer, prepared, { format: request.params.format ?? EXPORT_DEFAULT_FORMAT, quality: request.params.quality ?? DEFAULT_QUALITY }, services.assetSource)
      // The file key is the export id: a re-run after a crash overwrites, never duplicates.
      const stored = await storeRender(services, rendered, {
        // A record is JSON from a store: anything but a plan of the table counts without a limit.
        account: { id: record.ownerId, plan: isPlanId(request.plan, services.plans ?? PLANS) ? request.plan : null },
        renderId: record.id,
        replaces: true,
        delivery: request.delivery,
        expiresInMinutes: request.params.expiresIn ?? DEFAULT_EXPIRES_IN_MINUTES,
        now: now(),
      })
      record.status = 'succeeded'
      record.result = { url: stored.url, ...(stored.expiresAt ? { expiresAt: stored.expiresAt.toISOString() } : {}), format: rendered.format, file: { ...stored.file } }
      record.finishedAt = now().toISOString()
      await save(record)
      return undefined
    } catch (error) {
      const code = LithoError.isInstance(error) ? error.code : 'ERR_INTERNAL'
      if (!LithoError.isInstance(error)) report(error)
      if ((TRANSIENT.has(code) || code === 'ERR_INTERNAL') && record.attempts < EXPORT_JOB_MAX_RUNS) {
        record.status = 'queued'
        await save(record)
        return { retryInMs: baseRetryMs * 2 ** (record.attempts - 1) }
      }
      record.status = 'failed'
      record.error = { code, message: LithoError.isInstance(error) ? error.message : 'the export failed on the server; try again' }
      record.finishedAt = now().toISOString()
      // The render consumed at enqueue time is given back, exactly once (refund is idempotent by id).
      await settleRefund(refunding, { subject: record.ownerId, window: refundWindow(record), id: record.id }, 'export-job')
      await save(record)
      return undefined
    }
  }

  async function deliver(record: JobRecord): Promise<JobOutcome> {
    const webhook = record.webhook!
    const hooks = services.webhooks
    if (!hooks) {
      webhook.state = 'failed'
      await save(record)
      return { done: true }
    }
    // Wall time, not the service clock: receivers check the signed timestamp against theirs.
    const at = new Date()
    // The secret in force at each attempt (rotation applies to the next attempt).
    const secret = await hooks.secrets.get(record.ownerId)
    // Signed URLs are signed afresh at each attempt: a retry hours later carries a URL that is
    // valid now, or says it expired (the service clock: the file's expiry was set with it).
    let delivery: { ok: boolean; status?: number; error?: string }
    try {
      const payload = await webhookPayloadAt(record, { files: services.files, now: now() })
      delivery = await hooks.sender.send({ url: webhook.url, secret, id: `msg_${record.id}`, payload, now: at })
    } catch (error) {
      report(error)
      delivery = { ok: false, error: `could not prepare the delivery: ${(error as Error).message}` }
    }
    webhook.attempts.push({ at: at.toISOString(), ...(delivery.status !== undefined ? { status: delivery.status } : {}), ...(delivery.ok ? {} : { error: delivery.error ?? 'failed' }) })
    if (delivery.ok) {
      webhook.state = 'delivered'
      delete webhook.nextAttemptAt
      await save(record)
      return { done: true }
    }
    const delay = nextWebhookDelay(webhook.attempts.length, hooks.scheduleMs ?? WEBHOOK_RETRY_SCHEDULE_MS)
    if (delay === null) {
      webhook.state = 'failed'
      delete webhook.nextAttemptAt
      await save(record)
      return { done: true }
    }
    webhook.nextAttemptAt = new Date(at.getTime() + delay).toISOString()
    await save(record)
    return { retryInMs: delay }
  }

  async function onGiveUp(job: QueuedJob, reason: string): Promise<void> {
    const record = await services.jobs.get(job.id)
    if (!record) return
    if (record.status === 'queued' || record.status === 'processing') {
      record.status = 'failed'
      record.error = { code: EXPORT_ABANDONED, message: `the export could not be completed: the job queue ${reason}; nothing was charged, try again` }
      record.finishedAt = now().toISOString()
      await settleRefund(refunding, { subject: record.ownerId, window: refundWindow(record), id: record.id }, 'export-job')
      await save(record)
    }
    if (record.webhook?.state === 'pending') {
      // The queue runs this job no more: one last attempt now, and the outcome is final.
      const outcome = await deliver(record)
      if (!('done' in outcome)) {
        record.webhook.state = 'failed'
        delete record.webhook.nextAttemptAt
        await save(record)
      }
    }
  }

  const handler = async (job: QueuedJob): Promise<JobOutcome> => {
    const record = await services.jobs.get(job.id)
    if (!record) return { done: true }
    if (record.status === 'queued' || record.status === 'processing') {
      const retry = await run(record)
      if (retry) return retry
    }
    if (record.webhook?.state === 'pending') {
      // A retry that came early (a restart) waits for its turn.
      const due = record.webhook.nextAttemptAt ? Date.parse(record.webhook.nextAttemptAt) - Date.now() : 0
      if (due > 0) return { retryInMs: due }
      return deliver(record)
    }
    return { done: true }
  }
  return Object.assign(handler, { onGiveUp })
}
