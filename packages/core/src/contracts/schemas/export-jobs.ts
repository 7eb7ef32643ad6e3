/**
 * The export-job resources (docs/exports-and-jobs.md): the acknowledgement of a queued job and
 * the job record as its owner sees it (`GET /analytics/exports/{exportId}`).
 *
 * @module contracts/schemas/export-jobs
 */
import * as z from 'zod'
import { JOB_STATUSES } from '../job-queue.js'
import { OUTPUT_FORMATS, type OutputFormat } from '../formats.js'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageSchema, pageSizeSchema } from './common.js'

/** Runs of one job (the first and two retries of transient failures). */
export const EXPORT_JOB_MAX_RUNS = 3

const dateTime = (description?: string) => z.string().meta(description === undefined ? { format: 'date-time' } : { format: 'date-time', description })

/**
 * The acknowledgement of a queued export job.
 *
 * @example ExportJobAckSchema.parse({ success: true, exportId: 'exp_3Jx9Qm2LpZ7aK4tW', status: 'queued', pollUrl: '/analytics/exports/exp_3Jx9Qm2LpZ7aK4tW' })
 */
export const ExportJobAckSchema = z
  .object({
    success: z.literal(true),
    exportId: z.string().meta({ description: 'The job id, `exp_` and 16 characters of `[A-Za-z0-9_-]`.' }),
    status: z.literal('queued'),
    pollUrl: z.string().meta({ description: 'The path of the job record, to append to `{base_url}`: `/analytics/exports/{exportId}` (also in `Location`).' }),
  })
  .meta({ description: 'The acknowledgement of a queued export job.' })

/** One attempt to deliver a completion webhook. */
export const WebhookAttemptSchema = z.object({
  at: dateTime(),
  status: z.number().int().optional().meta({ description: "The receiver's HTTP status, when it answered." }),
  error: z.string().optional().meta({ description: 'Why the attempt failed (not 2xx, a timeout, a refused address…).' }),
})

/**
 * An export job record as its owner sees it; optional fields appear once they apply.
 *
 * @example ExportJobViewSchema.parse({ success: true, exportId: 'exp_3Jx9…', status: 'queued', designId: 'd_7Hq2', delivery: 'hosted', format: 'png', createdAt: '…', updatedAt: '…', attempts: 0 })
 */
export const ExportJobViewSchema = z
  .object({
    success: z.literal(true),
    exportId: z.string(),
    status: z.enum(JOB_STATUSES).meta({
      description: '`queued` → `processing` → `succeeded` or `failed`; a transient failure goes from `processing` back to `queued` for another run. `succeeded` and `failed` are final.',
    }),
    designId: z.string().meta({ description: "The design's `_id`." }),
    delivery: z.enum(['hosted', 'signed']),
    format: z.enum(OUTPUT_FORMATS as unknown as readonly [OutputFormat, ...OutputFormat[]]).meta({ description: 'The format asked for (png by default).' }),
    createdAt: dateTime('When the job was queued.'),
    updatedAt: dateTime('When the record last changed.'),
    startedAt: dateTime('When the first run started.').optional(),
    finishedAt: dateTime('When the job succeeded or failed.').optional(),
    attempts: z.number().int().meta({
      description: `Runs started so far: 1 for a job that ran once. Transient failures are retried until ${EXPORT_JOB_MAX_RUNS} runs; a run cut off by a stop or a crash counts too.`,
    }),
    url: z.string().optional().meta({ format: 'uri', description: 'Succeeded: the stored file, public (hosted) or signed until `expiresAt` (signed).' }),
    expiresAt: dateTime('Succeeded, signed delivery: when `url` stops working (`expiresIn` minutes after the render).').optional(),
    file: z.record(z.string(), z.unknown()).optional().meta({ description: 'Succeeded: the stored file (StoredFile).' }),
    error: z
      .object({ code: z.string().meta({ description: 'e.g. `ERR_RENDER_FAILED`, `ERR_IMAGE_FETCH`, `ERR_DESIGN_NOT_FOUND`.' }), message: z.string() })
      .optional()
      .meta({ description: 'Failed: what went wrong (the render was refunded).' }),
    webhook: z
      .object({
        url: z.string().meta({ format: 'uri' }),
        state: z.enum(['pending', 'delivered', 'failed']).meta({ description: '`failed`: every attempt of the retry schedule failed.' }),
        attempts: z.array(WebhookAttemptSchema).meta({
          description: "Every delivery attempt so far, oldest first: `at`, the receiver's `status` when it answered, `error` when the attempt failed.",
        }),
        nextAttemptAt: dateTime('While `pending` after a failed attempt: when the next one is due.').optional(),
      })
      .optional()
      .meta({ description: 'The completion webhook, when `webhookUrl` was given.' }),
  })
  .meta({ description: 'An export job record as its owner sees it. Optional fields appear once they apply.' })

/**
 * The query of the export-job and webhook-delivery lists: `$page` from 1, `$limit` 1-100 (as the design list).
 *
 * @example ListExportJobsParamsSchema.parse({ $page: 2, $limit: 20 })
 */
export const ListExportJobsParamsSchema = z.object({
  $page: pageSchema.optional().meta({ description: 'Page number, from 1. A page past the last is empty.', default: 1 }),
  $limit: pageSizeSchema.optional().meta({ description: `Items per page, newest first; 1-${MAX_PAGE_SIZE}.`, default: DEFAULT_PAGE_SIZE }),
})

/**
 * The completion webhook of one export job, with every delivery attempt: an item of
 * `GET /settings/webhook-deliveries`.
 *
 * @example ExportWebhookDeliverySchema.parse({ exportId: 'exp_3Jx9…', designId: 'd_7Hq2', status: 'succeeded', url: 'https://example.com/hook', state: 'delivered', attempts: [{ at: '…', status: 200 }], createdAt: '…' })
 */
export const ExportWebhookDeliverySchema = z.object({
  exportId: z.string().meta({ description: 'The export job it belongs to (`GET /analytics/exports/{exportId}`).' }),
  designId: z.string().meta({ description: "The design's `_id`." }),
  status: z.enum(JOB_STATUSES).meta({ description: "The export job's status; its webhook is sent once it is `succeeded` or `failed`." }),
  url: z.string().meta({ format: 'uri', description: 'Where the webhook is POSTed.' }),
  state: z.enum(['pending', 'delivered', 'failed']).meta({ description: '`pending` until an attempt is answered 2xx (`delivered`) or the retry schedule is used up (`failed`).' }),
  attempts: z.array(WebhookAttemptSchema).meta({ description: "Every delivery attempt so far, oldest first: `at`, the receiver's `status` when it answered, `error` when the attempt failed." }),
  nextAttemptAt: dateTime('While `pending` after a failed attempt: when the next one is due.').optional(),
  createdAt: dateTime('When the export job was queued.'),
  finishedAt: dateTime('When the export job finished (the first attempt follows).').optional(),
})
