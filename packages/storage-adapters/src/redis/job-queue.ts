/**
 * The job queue on BullMQ (Redis). Internal: `bullmqJobQueue` is exported by `job-queue.ts`.
 * BullMQ and ioredis are loaded at the first enqueue or start, so importing the job-queue
 * subpath never loads them.
 *
 * @module redis/job-queue
 */
import type { JobOutcome, JobQueue, JobQueueStartOptions, QueuedJob } from '@litho/core/contracts'
import { LithoError } from '@litho/core/errors'
import { importPeer, isOwnError } from '../kit/errors.js'
import type { Job, Queue, Worker } from 'bullmq'
import type { Redis } from 'ioredis'
import { CLIENT_OPTIONS } from '../kit/redis-client.js'
import { queueKit, quietReporter, readCommonOptions, readOutcome, settlesWithin, type CommonJobQueueOptions } from '../kit/job-queue.js'
import { DEFAULT_REDIS_URL } from '../kit/store-base.js'
import { describe } from '../kit/validate.js'

/** Options of {@link bullmqJobQueue}. */
export interface BullmqJobQueueOptions extends CommonJobQueueOptions {
  /** Where Redis is (two connections are made: one to add jobs, one for the worker, plus BullMQ's blocking copy). @default 'redis://127.0.0.1:6379' */
  url?: string
  /**
   * An ioredis client to use instead of `url`, for adding jobs and for the worker (BullMQ
   * duplicates it for its blocking connection). It must have `maxRetriesPerRequest: null`. The
   * queue never closes it.
   */
  connection?: Redis
  /** The BullMQ queue name, no `:`. @default 'litho-jobs' */
  name?: string
  /** The prefix of BullMQ's keys: `<prefix>:<name>:…`. @default 'litho:bull' */
  prefix?: string
  /**
   * How long a worker holds a job without renewing its lock (it renews every half of it). A
   * worker that died is noticed within about `lockDurationMs + 2 × stalledIntervalMs`, and its
   * jobs run again. @default 30000
   */
  lockDurationMs?: number
  /** How often each worker looks for jobs whose lock expired (stalled). @default 30000 */
  stalledIntervalMs?: number
}

const kit = queueKit('bullmq')
/** Marks an error whose job was already announced to onGiveUp by the processor. */
const ANNOUNCED = Symbol.for('litho.jobQueue.announced')
const announced = <E extends Error>(error: E): E => Object.assign(error, { [ANNOUNCED]: true })
const NAME_RE = /^[A-Za-z0-9_.-]{1,100}$/
const PREFIX_RE = /^[A-Za-z0-9_.:{}-]{1,200}$/
/** How long close() waits for BullMQ's own close once the runs are over. */
const CLOSE_GRACE_MS = 5_000

/**
 * BullMQ refuses custom job ids that read as integers (`123`): those get a `#`, which no id of
 * the port contains, so the mapping stays one-to-one. Every other job id IS the id.
 */
export function toBullmqJobId(id: string): string {
  return `${Number.parseInt(id, 10)}` === id ? `#${id}` : id
}

/**
 * A job queue on [BullMQ](https://docs.bullmq.io) (Redis): durable, and shared by any number of
 * processes and machines (capabilities `{ persistent: true, shared: true }`).
 *
 * - `enqueue` adds a BullMQ job whose `jobId` is the id (`#<id>` for ids that read as
 *   integers), so enqueueing an id already waiting, delayed or running adds nothing;
 *   `delayMs` is BullMQ's `delay`. Finished jobs are removed (`removeOnComplete`,
 *   `removeOnFail`), so the id can be enqueued again later.
 * - `start` makes a BullMQ `Worker` with `concurrency`. `attempt` is BullMQ's
 *   `attemptsStarted` (every run started, including one cut off by a crash).
 * - `{ retryInMs }` moves the job to BullMQ's delayed set (`job.moveToDelayed(now + ms, token)`
 *   and `DelayedError`); a handler that throws is retried by BullMQ itself (`attempts: maxRuns`,
 *   exponential `backoff` of `backoffMs`). After `maxRuns` runs the job fails and is removed
 *   (`onError` is told).
 * - A worker that dies stops renewing its jobs' locks; another worker (or this queue after a
 *   restart) finds them stalled and runs them again (`maxStalledCount` is `maxRuns`).
 * - `close()` stops taking jobs, waits up to `closeTimeoutMs` for runs in flight, then closes
 *   the worker (forced if runs are still going: those are cut off and run again once their
 *   lock expires), the queue and the connections it made.
 *
 * Redis: BullMQ needs Redis 5 or newer (6.2 or newer recommended) with
 * `maxmemory-policy noeviction`, and `maxRetriesPerRequest: null` on the worker's connections
 * (this factory sets it on the ones it makes). Keys: `<prefix>:<name>:*`.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a bad option.
 * @example
 * const queue = bullmqJobQueue({ url: process.env.REDIS_URL })
 * queue.start(runExport, { concurrency: 4 })
 * await queue.enqueue({ id: 'exp_3Jx9Qm2LpZ7a' })
 */
export function bullmqJobQueue(options: BullmqJobQueueOptions = {}): JobQueue {
  const given = (options ?? {}) as BullmqJobQueueOptions
  const { url = DEFAULT_REDIS_URL, connection, name = 'litho-jobs', prefix = 'litho:bull' } = given
  if (typeof url !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option url to be a string but received ${describe(url)}`)
  if (connection !== undefined) {
    if (typeof connection !== 'object' || connection === null || typeof (connection as { duplicate?: unknown }).duplicate !== 'function') {
      throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option connection to be an ioredis client but received ${describe(connection)}`)
    }
    if ((connection as { options?: { maxRetriesPerRequest?: unknown } }).options?.maxRetriesPerRequest !== null) {
      throw kit.typeError('ERR_INVALID_ARG_VALUE', 'Expected option connection to be an ioredis client with maxRetriesPerRequest: null (BullMQ needs it) but received one without')
    }
  }
  if (typeof name !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option name to be a string but received ${describe(name)}`)
  if (!NAME_RE.test(name)) throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected option name to be 1 to 100 characters of [A-Za-z0-9_.-] but received ${describe(name)}`)
  if (typeof prefix !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option prefix to be a string but received ${describe(prefix)}`)
  if (!PREFIX_RE.test(prefix)) throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected option prefix to be 1 to 200 characters of [A-Za-z0-9_.:{}-] but received ${describe(prefix)}`)
  const { closeTimeoutMs, maxRuns, backoffMs, onError } = readCommonOptions(kit, given)
  const lockDuration = kit.readNumber('option lockDurationMs', given.lockDurationMs, 100, 3_600_000, 30_000)
  const stalledInterval = kit.readNumber('option stalledIntervalMs', given.stalledIntervalMs, 100, 3_600_000, 30_000)

  const wrapError = (operation: string, error: unknown): unknown =>
    isOwnError(error)
      ? error
      : kit.storageError(operation, error instanceof Error ? error.message : 'the backend failed', error)

  /** Errors BullMQ emits (its connections, its loops): each message once per 30 s, as they repeat while Redis is down. */
  const report = quietReporter(onError)
  const reportBackend = (operation: string, error: unknown): void => report(wrapError(operation, error))

  // --- lazily made: BullMQ, the connections, the Queue ---
  const ownClients: Redis[] = []
  type Loaded = { bullmq: typeof import('bullmq'); queue: Queue; workerClient: Redis }
  let loading: Promise<Loaded> | undefined
  const load = (): Promise<Loaded> =>
    (loading ??= (async () => {
      const bullmq = await importPeer(kit.label, 'bullmq', () => import('bullmq'))
      let producerClient = connection
      let workerClient = connection
      if (!producerClient || !workerClient) {
        const module = (await importPeer(kit.label, 'ioredis', () => import('ioredis'))) as unknown as { Redis?: typeof Redis; default: typeof Redis }
        const RedisClient = module.Redis ?? module.default
        // Adding jobs fails fast while Redis is down (as the stores do); the worker waits it out.
        producerClient = new RedisClient(url, CLIENT_OPTIONS)
        workerClient = new RedisClient(url, { maxRetriesPerRequest: null })
        for (const client of [producerClient, workerClient]) {
          client.on('error', () => {})
          ownClients.push(client)
        }
      }
      const queue = new bullmq.Queue(name, { connection: producerClient, prefix })
      queue.on('error', (error) => reportBackend('queue', error))
      return { bullmq, queue, workerClient: workerClient! }
    })())

  // --- the worker ---
  type Run = { promise: Promise<unknown>; abandoned: boolean }
  const inFlight = new Set<Run>()
  let handler: ((job: QueuedJob) => Promise<JobOutcome>) | undefined
  let giveUp: (job: QueuedJob, reason: string) => Promise<boolean> = async () => true
  let worker: Worker | undefined
  let starting: Promise<void> | undefined
  let stopping = false
  let closing: Promise<void> | undefined

  const processor = (bullmq: Loaded['bullmq']) =>
    async (job: Job, token?: string): Promise<void> => {
      const id = (job.data as { id?: unknown } | undefined)?.id
      if (typeof id !== 'string') throw new bullmq.UnrecoverableError('not a job of this queue (no data.id)')
      const queued: QueuedJob = { id, attempt: job.attemptsStarted }
      const entry: Run = { promise: Promise.resolve(), abandoned: false }
      const running = (async () => {
        let outcome: { done: true } | { retryInMs: number }
        try {
          outcome = readOutcome(kit, await handler!({ ...queued }))
        } catch (error) {
          if (!entry.abandoned) {
            onError(error, { ...queued })
            if (queued.attempt >= maxRuns) {
              const reason = `gave up after ${queued.attempt} runs (maxRuns)`
              onError(kit.storageError('run', `job ${id} failed: ${reason}`), { ...queued })
              // Announced while the job is still active: a crash now runs it again.
              await giveUp(queued, reason)
              throw announced(new bullmq.UnrecoverableError(reason))
            }
          }
          // BullMQ retries it with its backoff, unless this was the last run.
          throw error
        }
        // Cut off by close(): the worker was closed without it; it runs again once its lock expires.
        if (entry.abandoned) throw new Error('the run was cut off by close()')
        if ('done' in outcome) return
        if (queued.attempt >= maxRuns) {
          const reason = `gave up after ${queued.attempt} runs (maxRuns)`
          onError(kit.storageError('run', `job ${id} failed: ${reason}`), { ...queued })
          await giveUp(queued, reason)
          throw announced(new bullmq.UnrecoverableError(reason))
        }
        await job.moveToDelayed(Date.now() + outcome.retryInMs, token)
        throw new bullmq.DelayedError()
      })()
      entry.promise = running
      inFlight.add(entry)
      try {
        return await running
      } finally {
        inFlight.delete(entry)
      }
    }

  return {
    name: 'bullmq',
    capabilities: { persistent: true, shared: true },

    async enqueue(job: { id: string; delayMs?: number }): Promise<void> {
      const { id, delayMs } = kit.readEnqueue(job)
      if (closing) throw kit.storageError('enqueue', 'The queue was closed')
      try {
        const { queue } = await load()
        await queue.add(
          'job',
          { id },
          {
            jobId: toBullmqJobId(id),
            ...(delayMs > 0 ? { delay: delayMs } : {}),
            attempts: maxRuns,
            backoff: { type: 'exponential', delay: backoffMs },
            removeOnComplete: true,
            removeOnFail: true,
          },
        )
      } catch (error) {
        throw wrapError('enqueue', error)
      }
    },

    async depth(): Promise<number> {
      try {
        const { queue } = await load()
        return await queue.getJobCountByTypes('waiting', 'delayed', 'prioritized')
      } catch (error) {
        throw wrapError('depth', error)
      }
    },

    start(jobHandler, startOptions: JobQueueStartOptions): void {
      const read = kit.readStart(jobHandler, startOptions, onError)
      const concurrency = read.concurrency
      giveUp = read.giveUp
      if (starting) throw new Error(`[${kit.label}] start: the queue was already started`)
      if (closing) throw new Error(`[${kit.label}] start: the queue was closed`)
      handler = jobHandler
      starting = (async () => {
        const { bullmq, workerClient } = await load()
        if (stopping) return
        worker = new bullmq.Worker(name, processor(bullmq), {
          connection: workerClient,
          prefix,
          concurrency,
          lockDuration,
          stalledInterval,
          // A job may be found stalled (its worker died) and be re-run up to maxRuns times in all.
          maxStalledCount: maxRuns,
          maxStartedAttempts: maxRuns,
        })
        worker.on('error', (error) => reportBackend('worker', error))
        // Jobs BullMQ fails without our processor deciding it: stalled more than maxStalledCount,
        // or started more than maxStartedAttempts (their runs were cut off). The event comes from
        // the worker that failed the job; \`finishedOn\` tells a final failure from a retried one.
        worker.on('failed', (job, error) => {
          if (!job || typeof job.finishedOn !== 'number' || ANNOUNCED in (error as object)) return
          const id = (job.data as { id?: unknown } | undefined)?.id
          if (typeof id !== 'string') return
          const queued: QueuedJob = { id, attempt: job.attemptsStarted }
          const reason = `gave up: ${error?.message ?? 'BullMQ failed the job'}`
          onError(kit.storageError('run', `job ${id} failed: ${reason}`), { ...queued })
          void giveUp(queued, reason)
        })
      })().catch((error: unknown) => onError(wrapError('start', error)))
    },

    close(): Promise<void> {
      closing ??= (async () => {
        stopping = true
        await starting
        const loaded = await loading?.catch(() => undefined)
        if (worker && loaded) {
          // Stop fetching; runs in flight go on (their locks are still renewed).
          await worker.pause(true).catch((error: unknown) => onError(wrapError('close', error)))
          const finished = await settlesWithin(Promise.all([...inFlight].map((entry) => entry.promise)), closeTimeoutMs)
          if (!finished) for (const entry of inFlight) entry.abandoned = true
          // Graceful when every run ended and Redis is there: BullMQ records their outcomes first.
          // Forced otherwise: the runs still going keep their jobs active in Redis until the lock
          // expires; and a graceful close would wait for Redis to come back.
          const graceful = finished && inFlight.size === 0 && loaded.workerClient.status === 'ready'
          const closed = await settlesWithin(
            worker.close(!graceful).catch((error: unknown) => reportBackend('close', error)),
            CLOSE_GRACE_MS,
          )
          if (!closed) reportBackend('close', new Error(`the BullMQ worker did not close within ${CLOSE_GRACE_MS} ms (is Redis reachable?)`))
        }
        await loaded?.queue.close().catch((error: unknown) => onError(wrapError('close', error)))
        await Promise.all(
          ownClients.map(async (client) => {
            if (client.status === 'end') return
            if (client.status === 'ready') await client.quit().catch(() => client.disconnect())
            else client.disconnect()
          }),
        )
      })()
      return closing
    },
  }
}
