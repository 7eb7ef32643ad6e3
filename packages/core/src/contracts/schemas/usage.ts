/**
 * The usage resource of `GET /analytics/api` (docs/http-reference.md): render counts in UTC
 * buckets and the stored bytes now.
 *
 * @module contracts/schemas/usage
 */
import * as z from 'zod'

/** The bucket sizes of `groupBy`, finest first. */
export const USAGE_GROUP_BYS = ['hour', 'day', 'week', 'month', 'year'] as const
/** A bucket size, e.g. `'day'`. */
export type UsageGroupBy = (typeof USAGE_GROUP_BYS)[number]
/** Most buckets one usage request may span (e.g. 1000 hours ≈ 41 days). */
export const MAX_USAGE_BUCKETS = 1000
/** How far back `start` lies from `end` when it is absent, in days. */
export const DEFAULT_USAGE_DAYS = 7

/**
 * A usage bucket's JSON.
 *
 * @example UsageBucketSchema.parse({ start: '2026-11-23T00:00:00.000Z', end: '2026-11-24T00:00:00.000Z', count: 12 })
 */
export const UsageBucketSchema = z.object({
  start: z.string().meta({ format: 'date-time', description: 'First instant of the bucket (UTC).' }),
  end: z.string().meta({ format: 'date-time', description: 'End of the bucket, exclusive: the next bucket’s start.' }),
  count: z.number().int().meta({ description: 'Renders in the bucket (within the requested range), net of refunds.' }),
})
/** One bucket, e.g. `{ start: '2026-11-23T00:00:00.000Z', end: '2026-11-24T00:00:00.000Z', count: 12 }`. */
export type UsageBucket = z.infer<typeof UsageBucketSchema>

/**
 * The body of `GET /analytics/api`.
 *
 * @example UsageResponseSchema.parse({ success: true, groupBy: 'day', start: '…', end: '…', total: 0, buckets: [], storage: { usedBytes: 0, limitBytes: 500000000 }, quota: { limit: 100, used: 0, remaining: 100, resetAt: '…' } })
 */
export const UsageResponseSchema = z.object({
  success: z.literal(true),
  groupBy: z.enum(USAGE_GROUP_BYS),
  start: z.string().meta({ format: 'date-time', description: 'The range’s start, as used.' }),
  end: z.string().meta({ format: 'date-time', description: 'The range’s end (exclusive), as used.' }),
  total: z.number().int().meta({ description: 'Renders in the range: the sum of the buckets.' }),
  buckets: z.array(UsageBucketSchema).meta({ description: 'Every bucket of the range, oldest first, empty ones included.' }),
  storage: z
    .object({
      usedBytes: z.number().int().meta({ description: 'Bytes of stored renders (hosted and signed files) the account holds now.' }),
      limitBytes: z.number().int().nullable().meta({ description: 'The plan’s storage limit in bytes (Free 500 MB, Basic 10 GB), or null for no limit.' }),
    })
    .meta({ description: 'Stored renders now (not over the range): what counts against the plan’s storage. It goes down as files expire or are swept.' }),
  quota: z
    .object({
      limit: z.number().int().nullable().meta({ description: 'The plan’s renders a month (as `X-Quota-Limit`), or null when the account has no plan.' }),
      used: z.number().int().meta({ description: 'Renders used in the current month (UTC), net of refunds.' }),
      remaining: z.number().int().nullable().meta({ description: 'Renders left this month (never below 0; as `X-Quota-Remaining`), or null without a plan.' }),
      resetAt: z.string().meta({ format: 'date-time', description: 'When the month’s count resets: the 1st of the next month, 00:00 UTC (as `X-Quota-Reset`).' }),
    })
    .meta({ description: 'The render quota now (not over the range), without spending a render to read it.' }),
})
/** The usage body, e.g. `{ success: true, groupBy: 'day', start, end, total: 42, buckets: [...], storage: { usedBytes: 48213, limitBytes: 500000000 }, quota: { limit: 100, used: 42, remaining: 58, resetAt } }`. */
export type UsageResponse = z.infer<typeof UsageResponseSchema>

