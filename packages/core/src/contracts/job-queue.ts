/**
 * The job ports: durable export-job records, and the queue that runs them.
 *
 * @module contracts/job-queue
 */

/** The states of an export job in the order a job goes through them; transitions: queued → processing → succeeded | failed (processing → queued on a retry). */
export const JOB_STATUSES = Object.freeze(['queued', 'processing', 'succeeded', 'failed'] as const)
/** The state of an export job, e.g. `'processing'`. */
export type JobStatus = (typeof JOB_STATUSES)[number]

/** One attempt to deliver a completion webhook. */
export interface WebhookAttempt {
  /** ISO 8601 time the attempt started. */
  at: string
  /** The HTTP status of the answer, when there was one. */
  status?: number
  /** Why it failed without a status (timeout, refused address, connection error…). */
  error?: string
}

/** A durable export job, as stored. */
export interface JobRecord {
  /** `[A-Za-z0-9_-]{1,64}`, e.g. `exp_3Jx9Qm2LpZ7a` (the `exportId`). */
  id: string
  /** The owning account. */
  ownerId: string
  /** The design's `_id`. */
  designId: string
  status: JobStatus
  /** What to do: opaque to the store (the export's delivery, parameters and overrides). JSON. */
  request: Record<string, unknown>
  /** Runs started so far (1 on the first run). */
  attempts: number
  /** ISO 8601 timestamps, set by the caller. */
  createdAt: string
  updatedAt: string
  startedAt?: string
  finishedAt?: string
  /** When succeeded: what was produced (URL, expiresAt, format, file). JSON. */
  result?: Record<string, unknown>
  /** When failed: an error a user can act on. */
  error?: { code: string; message: string }
  /** The completion webhook, when one was asked for. */
  webhook?: { url: string; state: 'pending' | 'delivered' | 'failed'; attempts: WebhookAttempt[]; nextAttemptAt?: string }
}

/** Most recent jobs of one owner that {@link JobStore.listByOwner} lists; older ones stay readable by id. */
export const MAX_LISTED_JOBS = 1000

/**
 * Stores job records. Every implementation passes the job-store suite of `@litho/testing`.
 *
 * Behaviour:
 * - "Not found" is `null` (get) or `false` (update), never an error.
 * - Records come back as stored, as copies.
 * - `create` rejects with a LithoError `ERR_STORE_CONFLICT` when the id is taken.
 * - `update` replaces the record (last write wins); only the worker running a job writes it,
 *   and the caller serialises its own writes.
 * - `listByOwner` (optional: the listing of `GET /analytics/exports` needs it) gives the owner's
 *   jobs newest first (by `createdAt`, then id), at most {@link MAX_LISTED_JOBS} of them (older
 *   ones may be forgotten by the listing, never by `get`), a page of at most 100 records, with
 *   `total` the number listed. With `webhooks: true`, only the jobs created with a `webhook`
 *   (their deliveries). It may lag behind `create` briefly, like the design list.
 * - Invalid arguments reject with coded TypeErrors; backend failures with `ERR_STORAGE`.
 */
export interface JobStore {
  readonly name: string
  create(record: JobRecord): Promise<void>
  get(id: string): Promise<JobRecord | null>
  update(record: JobRecord): Promise<boolean>
  /** The owner's jobs (with `webhooks`, those with a webhook), newest first: `offset` ≥ 0, `limit` 1-100. */
  listByOwner?(ownerId: string, page: { offset: number; limit: number; webhooks?: boolean }): Promise<{ items: JobRecord[]; total: number }>
  dispose?(): Promise<void>
}

/** A job as the queue hands it to the handler. */
export interface QueuedJob {
  /** The job id (same as the record's). */
  id: string
  /** 1 on the first run, 2 on the first retry… */
  attempt: number
}

/** How a handler ends a run. */
export type JobOutcome =
  /** Done (succeeded or failed for good): never run again. */
  | { done: true }
  /** A transient failure: run again after `delayMs` (the queue may cap the number of runs). */
  | { retryInMs: number }

/** Options of {@link JobQueue.start}. */
export interface JobQueueStartOptions {
  /** Jobs run at once by this process. */
  concurrency: number
  /**
   * Called when the queue gives up on a job, whatever the path: its last allowed run asked for
   * a retry or threw, or its runs were cut off (crash, stall) more often than the queue
   * allows. The queue never calls the handler for it again, so this is where the caller marks
   * its own record failed (and refunds, notifies…). Called before the queue forgets the job
   * where the backend allows it (a crash before it resolves leads to another run or call), so
   * it must be idempotent; a rejection is reported through the queue's error reporter.
   */
  onGiveUp?: (job: QueuedJob, reason: string) => Promise<void>
}

/**
 * Runs jobs durably. Every implementation passes the job-queue suite of `@litho/testing`.
 *
 * Behaviour:
 * - `enqueue` persists the job before it resolves: after a crash or restart the job still runs.
 * - Each job is handed to one handler at a time, on one instance or on many sharing a backend.
 * - A job whose run did not finish (the process died, or was stopped with the job in flight) is
 *   run again, by this process after a restart or by another instance: at-least-once delivery.
 *   Handlers make their effects idempotent (the record's status tells a re-run what is done).
 * - `{ retryInMs }` runs the job again no sooner than that; a handler that throws counts as
 *   a retry after the queue's own backoff. `{ done: true }` ends it.
 * - `close()` stops taking jobs and waits for runs in flight (up to the queue's timeout); a
 *   job cut off then is run again later.
 * - A job the queue gives up on (runs used up, or cut off too often) is announced to
 *   `onGiveUp` of {@link JobQueueStartOptions}, at least once, never silently dropped.
 */
export interface JobQueue {
  readonly name: string
  /** What this queue guarantees beyond the contract. */
  readonly capabilities: { persistent: boolean; shared: boolean }
  /** Adds a job, to run as soon as a handler is free (or no sooner than `delayMs`). */
  enqueue(job: { id: string; delayMs?: number }): Promise<void>
  /** Starts handing jobs to `handler`. Call once. */
  start(handler: (job: QueuedJob) => Promise<JobOutcome>, options: JobQueueStartOptions): void
  /** Stops taking jobs and waits for runs in flight; releases connections. */
  close(): Promise<void>
  /**
   * Jobs waiting to run (due or delayed, not running), on every instance of a shared queue.
   * Optional, for metrics (`litho_export_queue_depth`); rejects when the backend cannot answer.
   */
  depth?(): Promise<number>
}
