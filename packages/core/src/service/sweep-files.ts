/**
 * The retention sweep: deletes stored renders whose lifetime is over and gives their bytes back
 * to the owner's storage quota. Runs inside `litho serve` periodically and as `litho gc`.
 *
 * - A `signed` file goes once its signed URL has expired: nobody can fetch it any more.
 * - A `hosted` file goes `hostedRetentionDays` after it was stored; with `null` (the default
 *   setting) hosted files are kept forever.
 *
 * Each file is deleted from the file store first, then its bytes are refunded, then its record
 * is dropped: a crash or a failure in between leaves the record, and the next sweep finishes the
 * job (deleting a missing file and refunding a refunded id change nothing). Safe to run on
 * several instances at once for the same reason.
 *
 * @module service/sweep-files
 */
import type { Clock } from '../contracts/clock.js'
import type { FileStore } from '../contracts/file-store.js'
import type { Meter } from '../contracts/meter.js'
import type { RetainedFile, RetentionIndex } from '../contracts/retention-index.js'
import { refundStorage } from '../quota/meter-storage.js'
import { clockOf } from './services.js'

/** What one sweep did. */
export interface SweepReport {
  /** Records looked at. */
  scanned: number
  /** Files deleted (or found already gone) and forgotten. */
  deleted: number
  /** Bytes given back to their owners' storage. */
  freedBytes: number
  /** Files whose deletion failed (a backend error); they are tried again by the next sweep. */
  failed: number
}

/** Options of {@link sweepStoredFiles}. */
export interface SweepOptions {
  /** Days a hosted file is kept; null keeps hosted files forever. */
  hostedRetentionDays: number | null
  /** Records read per page. @default 500 */
  pageSize?: number
  /** Called with each failure (the sweep goes on). */
  report?: (error: unknown, file: RetainedFile) => void
}

const DAY_MS = 86_400_000

/**
 * Whether a file's lifetime is over at `now`.
 *
 * @example isExpired({ delivery: 'signed', expiresAt: '2026-11-23T10:00:00Z', … }, new Date('2026-11-23T10:00:01Z'), null) // true
 */
export function isExpired(file: RetainedFile, now: Date, hostedRetentionDays: number | null): boolean {
  if (file.delivery === 'signed') return file.expiresAt !== null && Date.parse(file.expiresAt) <= now.getTime()
  return hostedRetentionDays !== null && Date.parse(file.createdAt) + hostedRetentionDays * DAY_MS <= now.getTime()
}

/**
 * Deletes every stored render whose lifetime is over and refunds its bytes.
 *
 * @throws TypeError for a `hostedRetentionDays` that is not null or a whole number ≥ 1; errors
 * of `retention.list` as they are (a failing file is counted in `failed`, not thrown).
 * @example
 * const { deleted, freedBytes } = await sweepStoredFiles({ files, meter, retention }, { hostedRetentionDays: 30 })
 */
export async function sweepStoredFiles(services: { files: FileStore; meter: Meter; retention: RetentionIndex; clock?: Clock }, options: SweepOptions): Promise<SweepReport> {
  const days = options.hostedRetentionDays
  if (days !== null && !(Number.isSafeInteger(days) && days >= 1)) throw new TypeError(`hostedRetentionDays: expected null or a whole number ≥ 1, received ${String(days)}`)
  const pageSize = options.pageSize ?? 500
  const now = clockOf(services).now()
  const result: SweepReport = { scanned: 0, deleted: 0, freedBytes: 0, failed: 0 }
  let after: string | undefined
  for (;;) {
    const page = await services.retention.list(after === undefined ? { limit: pageSize } : { after, limit: pageSize })
    if (page.length === 0) return result
    after = page[page.length - 1]!.key
    result.scanned += page.length
    for (const file of page) {
      if (!isExpired(file, now, days)) continue
      try {
        await services.files.delete(file.key)
        if (await refundStorage(services.meter, { accountId: file.owner, key: file.key })) result.freedBytes += file.bytes
        await services.retention.delete(file.key)
        result.deleted += 1
      } catch (error) {
        result.failed += 1
        options.report?.(error, file)
      }
    }
  }
}
