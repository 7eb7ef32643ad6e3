/**
 * What an export job looks like from outside: the view its owner polls
 * (`GET /analytics/exports/{exportId}`) and the body POSTed to its `webhookUrl` when it
 * finishes, with a signed URL made afresh at each delivery attempt (docs/webhooks.md).
 *
 * @module service/export-job-view
 */
import type { FileStore } from '../contracts/file-store.js'
import type { JobRecord } from '../contracts/job-queue.js'
import { LithoError } from '../errors.js'
import { EXPORT_DEFAULT_FORMAT } from '../render/defaults.js'
import type * as z from 'zod'
import { ExportJobAckSchema, ExportJobViewSchema } from '../contracts/schemas/export-jobs.js'
import { STORE_ID } from './bearer-services.js'
import type { ExportJobAck, ExportJobRequest, ExportJobServices } from './export-jobs.js'

/** The path of the polling endpoint of an export. */
export const exportPollPath = (exportId: string): string => `/analytics/exports/${exportId}`

/** The job record as its owner sees it (`GET /analytics/exports/{exportId}`). */
export interface ExportJobView {
  success: true
  exportId: string
  status: JobRecord['status']
  designId: string
  delivery: 'hosted' | 'signed'
  format: string
  createdAt: string
  updatedAt: string
  startedAt?: string
  finishedAt?: string
  /** Runs started so far. */
  attempts: number
  /** When succeeded: the stored file's URL (and `expiresAt` for signed). */
  url?: string
  expiresAt?: string
  file?: Record<string, unknown>
  /** When failed: what went wrong. */
  error?: { code: string; message: string }
  webhook?: JobRecord['webhook']
}

// The schemas of the contracts entry describe exactly these two interfaces (fails to compile otherwise).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const viewMatches: Same<ExportJobView, Omit<z.infer<typeof ExportJobViewSchema>, 'format'> & { format: string }> = true
const ackMatches: Same<ExportJobAck, z.infer<typeof ExportJobAckSchema>> = true
void viewMatches
void ackMatches

/**
 * An export job of the account.
 *
 * @throws LithoError `ERR_EXPORT_NOT_FOUND` for an unknown id or another account's job.
 */
export async function getExportJob(services: Pick<ExportJobServices, 'jobs'>, input: { account: { id: string }; id: string }): Promise<ExportJobView> {
  const record = typeof input.id === 'string' && STORE_ID.test(input.id) ? await services.jobs.get(input.id) : null
  if (!record || record.ownerId !== input.account.id) {
    const shown = String(input.id).slice(0, 64)
    throw new LithoError('ERR_EXPORT_NOT_FOUND', `no export job has the id ${JSON.stringify(shown)}`, { details: { id: shown } })
  }
  return toView(record)
}

/** The view of a job record (internal: shared with the job handler). */
export function toView(record: JobRecord): ExportJobView {
  const request = record.request as unknown as ExportJobRequest
  const result = record.result as { url?: string; expiresAt?: string; file?: Record<string, unknown> } | undefined
  return {
    success: true,
    exportId: record.id,
    status: record.status,
    designId: record.designId,
    delivery: request.delivery,
    format: request.params.format ?? EXPORT_DEFAULT_FORMAT,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    ...(record.startedAt ? { startedAt: record.startedAt } : {}),
    ...(record.finishedAt ? { finishedAt: record.finishedAt } : {}),
    attempts: record.attempts,
    ...(result?.url ? { url: result.url } : {}),
    ...(result?.expiresAt ? { expiresAt: result.expiresAt } : {}),
    ...(result?.file ? { file: result.file } : {}),
    ...(record.error ? { error: record.error } : {}),
    ...(record.webhook ? { webhook: record.webhook } : {}),
  }
}

/** The body POSTed to a job's `webhookUrl` when it finishes (docs/webhooks.md). */
export function webhookPayload(record: JobRecord): Record<string, unknown> {
  const view = toView(record)
  return {
    type: record.status === 'succeeded' ? 'export.succeeded' : 'export.failed',
    exportId: view.exportId,
    status: view.status,
    designId: view.designId,
    delivery: view.delivery,
    format: view.format,
    ...(view.url ? { url: view.url } : {}),
    ...(view.expiresAt ? { expiresAt: view.expiresAt } : {}),
    ...(view.file ? { file: view.file } : {}),
    ...(view.error ? { error: view.error } : {}),
    timestamp: view.finishedAt ?? view.updatedAt,
  }
}

/**
 * The webhook body of one delivery attempt at `now` (docs/webhooks.md, "Signed URLs and
 * retries"): {@link webhookPayload}, and for a succeeded `signed` export a URL signed afresh
 * at this attempt (with the signing key in force now), valid until the file's own expiry
 * (`expiresAt`, fixed when the export finished: `expiresIn` minutes after it). Once that has
 * passed the body has no `url` but `expired: true`, the `pollUrl` and a `message` saying how
 * to get a fresh file.
 *
 * @throws LithoError `ERR_STORAGE` when the file store cannot sign (the attempt then fails and is retried).
 * @example const payload = await webhookPayloadAt(record, { files, now: clock.now() })
 */
export async function webhookPayloadAt(record: JobRecord, context: { files: Pick<FileStore, 'signedUrl'>; now: Date }): Promise<Record<string, unknown>> {
  const payload = webhookPayload(record)
  const request = record.request as unknown as ExportJobRequest
  const result = record.result as { expiresAt?: string; file?: { key?: string } } | undefined
  if (record.status !== 'succeeded' || request.delivery !== 'signed' || !result?.expiresAt || typeof result.file?.key !== 'string') return payload
  const expiresAt = new Date(result.expiresAt)
  if (context.now.getTime() >= expiresAt.getTime()) {
    delete payload.url
    return {
      ...payload,
      expired: true,
      pollUrl: exportPollPath(record.id),
      message: `the signed URL expired at ${result.expiresAt} (expiresIn of the export), before this delivery; the file is no longer served: export again (POST /designs/v2/${record.designId}/export/jobs) with a longer expiresIn (up to 10080 minutes)`,
    }
  }
  try {
    return { ...payload, url: await context.files.signedUrl(result.file.key, { expiresAt, now: context.now }) }
  } catch (error) {
    if (LithoError.isInstance(error)) throw error
    throw new LithoError('ERR_STORAGE', `could not sign the file URL: ${(error as Error).message}`, { cause: error })
  }
}
