/**
 * What the job queues share: input checks, errors, the backoff of a handler that throws, how a
 * handler's outcome is read, and the runner of the queues that run jobs in this process (memory
 * and fs) over a small backend interface. Internal: not exported.
 *
 * @module kit/job-queue
 */
import type { JobOutcome, JobQueue, JobQueueStartOptions, QueuedJob } from '@litho/core/contracts'
import { LithoError } from '@litho/core/errors'
import { storageError, typeError as codedTypeError, type CodedTypeError, type TypeErrorCode } from './errors.js'
import { ID_RE } from './store-base.js'
import { describe } from './validate.js'

/** The longest delay: what `setTimeout` can wait (about 24.8 days). Longer is a bug. */
export const MAX_DELAY_MS = 2_147_483_647
/** The most jobs one instance runs at once. */
export const MAX_CONCURRENCY = 1_000
export const DEFAULT_CLOSE_TIMEOUT_MS = 30_000
export const DEFAULT_MAX_RUNS = 10
export const DEFAULT_BACKOFF_MS = 1_000
export const DEFAULT_MAX_BACKOFF_MS = 300_000

type Code = TypeErrorCode

/** Reports an error the queue cannot return to a caller: a handler that threw, a backend that failed mid-run. */
export type JobQueueErrorHandler = (error: unknown, job?: QueuedJob) => void

/** Options every queue has. */
export interface CommonJobQueueOptions {
  /**
   * How long `close()` waits for runs in flight before it gives up on them (they are run again
   * later, see the adapter). @default 30000
   */
  closeTimeoutMs?: number
  /**
   * The most runs of one job: a job that asks for a retry (or throws) on its last run is given
   * up (failed). The handler sees `attempt` and usually ends a job itself first. @default 10
   */
  maxRuns?: number
  /** The backoff after a handler throws: `backoffMs × 2^(attempt-1)`. @default 1000 */
  backoffMs?: number
  /**
   * Called with every error the queue cannot return to a caller: a handler that threw or
   * returned something other than an outcome (`job` is set), a backend failing while jobs run.
   * @default reports to console.error
   */
  onError?: JobQueueErrorHandler
}

/** The checks and errors of one queue; `label` is `job-queue:<adapter>`. */
export interface QueueKit {
  readonly label: string
  typeError(code: Code, message: string): TypeError & { code: Code }
  storageError(operation: string, message: string, cause?: unknown): LithoError
  /** Checks `enqueue`'s argument; returns the id and the delay (0 when not given). */
  readEnqueue(job: unknown): { id: string; delayMs: number }
  /** Checks `start`'s arguments; returns the concurrency and the give-up hook (reporting its failures through `onError`). */
  readStart(handler: unknown, options: unknown, onError?: JobQueueErrorHandler): { concurrency: number; giveUp: (job: QueuedJob, reason: string) => Promise<boolean> }
  /** A whole-number option in [min, max], or its default. */
  readNumber(name: string, value: unknown, min: number, max: number, fallback: number): number
  readOnError(value: unknown): JobQueueErrorHandler
}

/** Builds the {@link QueueKit} of a queue adapter, e.g. `queueKit('fs')`. */
export function queueKit(adapter: string): QueueKit {
  const label = `job-queue:${adapter}`
  const typeError = (code: Code, message: string): CodedTypeError => codedTypeError(label, code, message)
  const readNumber = (name: string, value: unknown, min: number, max: number, fallback: number): number => {
    if (value === undefined) return fallback
    if (typeof value !== 'number') throw typeError('ERR_INVALID_ARG_TYPE', `Expected ${name} to be a number but received ${describe(value)}`)
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw typeError('ERR_INVALID_ARG_VALUE', `Expected ${name} to be a whole number from ${min} to ${max} but received ${describe(value)}`)
    }
    return value
  }
  return {
    label,
    typeError,
    storageError: (operation, message, cause) => storageError(label, label, operation, message, cause),
    readEnqueue(job) {
      if (typeof job !== 'object' || job === null || Array.isArray(job)) throw typeError('ERR_INVALID_ARG_TYPE', `Expected job to be an object but received ${describe(job)}`)
      const { id, delayMs } = job as Record<string, unknown>
      if (typeof id !== 'string') throw typeError('ERR_INVALID_ARG_TYPE', `Expected job.id to be a string but received ${describe(id)}`)
      if (!ID_RE.test(id)) throw typeError('ERR_INVALID_ARG_VALUE', `Expected job.id to be 1 to 64 characters of [A-Za-z0-9_-] but received ${describe(id)}`)
      return { id, delayMs: readNumber('job.delayMs', delayMs, 0, MAX_DELAY_MS, 0) }
    },
    readStart(handler, options, onError) {
      if (typeof handler !== 'function') throw typeError('ERR_INVALID_ARG_TYPE', `Expected handler to be a function but received ${describe(handler)}`)
      if (typeof options !== 'object' || options === null || Array.isArray(options)) {
        throw typeError('ERR_INVALID_ARG_TYPE', `Expected options to be an object but received ${describe(options)}`)
      }
      const { concurrency, onGiveUp } = options as Record<string, unknown>
      if (concurrency === undefined) throw typeError('ERR_MISSING_OPTION', 'Expected options.concurrency but received none')
      if (onGiveUp !== undefined && typeof onGiveUp !== 'function') throw typeError('ERR_INVALID_ARG_TYPE', `Expected options.onGiveUp to be a function but received ${describe(onGiveUp)}`)
      const hook = onGiveUp as ((job: QueuedJob, reason: string) => Promise<void>) | undefined
      return {
        concurrency: readNumber('options.concurrency', concurrency, 1, MAX_CONCURRENCY, 1),
        // Never throws: a hook that fails is reported, and the job is given up all the same.
        // True when the hook resolved (or there is none): the backend may forget the job.
        giveUp: async (job, reason) => {
          try {
            await hook?.({ ...job }, reason)
            return true
          } catch (error) {
            onError?.(error, { ...job })
            return false
          }
        },
      }
    },
    readNumber,
    readOnError(value) {
      if (value === undefined) return (error, job) => console.error(`[${label}]${job ? ` job ${job.id} (attempt ${job.attempt})` : ''}`, error)
      if (typeof value !== 'function') throw typeError('ERR_INVALID_ARG_TYPE', `Expected option onError to be a function but received ${describe(value)}`)
      return (error, job) => {
        try {
          ;(value as JobQueueErrorHandler)(error, job)
        } catch {
          // A failing reporter must not stop the queue.
        }
      }
    },
  }
}

/** The common options, checked, with their defaults. */
export function readCommonOptions(kit: QueueKit, options: CommonJobQueueOptions): Required<CommonJobQueueOptions> {
  return {
    closeTimeoutMs: kit.readNumber('option closeTimeoutMs', options.closeTimeoutMs, 0, MAX_DELAY_MS, DEFAULT_CLOSE_TIMEOUT_MS),
    maxRuns: kit.readNumber('option maxRuns', options.maxRuns, 1, 1_000_000, DEFAULT_MAX_RUNS),
    backoffMs: kit.readNumber('option backoffMs', options.backoffMs, 0, MAX_DELAY_MS, DEFAULT_BACKOFF_MS),
    onError: kit.readOnError(options.onError),
  }
}

/**
 * Reports backend errors through `onError`, each message at most once per `quietMs`: while a
 * backend is down the same error repeats at every poll or reconnection attempt.
 */
export function quietReporter(onError: JobQueueErrorHandler, quietMs = 30_000): (error: unknown) => void {
  const reported = new Map<string, number>()
  return (error) => {
    const key = error instanceof Error ? `${error.message}|${String((error.cause as Error | undefined)?.message)}` : String(error)
    const now = Date.now()
    if ((reported.get(key) ?? Number.NEGATIVE_INFINITY) > now - quietMs) return
    if (reported.size >= 100) reported.clear()
    reported.set(key, now)
    onError(error)
  }
}

/** The backoff before run `attempt + 1` after run `attempt` threw: `base × 2^(attempt-1)`, capped. */
export function backoffDelay(baseMs: number, attempt: number, maxMs = DEFAULT_MAX_BACKOFF_MS): number {
  return Math.min(baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30), Math.max(maxMs, baseMs), MAX_DELAY_MS)
}

/**
 * Reads what a handler returned: `{ done: true }`, or `{ retryInMs }` (a finite number ≥ 0,
 * rounded up to whole milliseconds, capped at {@link MAX_DELAY_MS}). Anything else throws.
 */
export function readOutcome(kit: QueueKit, value: unknown): { done: true } | { retryInMs: number } {
  if (typeof value === 'object' && value !== null) {
    const { done, retryInMs } = value as Record<string, unknown>
    if (done === true) return { done: true }
    if (typeof retryInMs === 'number' && Number.isFinite(retryInMs) && retryInMs >= 0) return { retryInMs: Math.min(Math.ceil(retryInMs), MAX_DELAY_MS) }
  }
  throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected the handler to return { done: true } or { retryInMs } but received ${describe(value)}`)
}

/** Resolves true when `promise` settles within `ms`, false when the time runs out first. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  try {
    return await Promise.race([promise.then(() => true as const, () => true as const), timeout])
  } finally {
    clearTimeout(timer)
  }
}

// --- the local runner (memory, fs) ---

/** A job claimed from a local backend: what the handler gets, plus the backend's own token. */
export interface ClaimedJob<T> {
  job: QueuedJob
  token: T
}

/** How a run ended, for the backend to record. */
export type RunEnd = { kind: 'done' } | { kind: 'retry'; notBefore: number } | { kind: 'failed'; reason: string; announced: boolean }

/** The storage of a local queue: where jobs wait, and the moves between states. */
export interface LocalBackend<T> {
  /** Adds a job unless one with its id is waiting or running. */
  add(id: string, notBefore: number): Promise<void>
  /** Before the first claim: puts back runs a previous instance left unfinished. */
  recover(): Promise<void>
  /**
   * Persistent backends: jobs given up whose `onGiveUp` did not resolve (it failed, or the
   * process died first), announced again after `recover`; `announced(id)` records success.
   */
  unannounced?(): Promise<Array<{ job: QueuedJob; reason: string }>>
  announced?(id: string): Promise<void>
  /** Claims up to `max` jobs due at `now`, oldest first; `nextAt` is when the next waiting job is due (null: none waits). */
  claim(max: number, now: number): Promise<{ claimed: Array<ClaimedJob<T>>; nextAt: number | null }>
  /** Records how a run ended. */
  finish(claimed: ClaimedJob<T>, end: RunEnd): Promise<void>
  /** Puts a claimed job back, unrun (claimed while the queue was closing). */
  release(claimed: ClaimedJob<T>): Promise<void>
  /** Jobs waiting (due or delayed), not running: the queue's `depth`. */
  waiting?(): Promise<number>
}

/** Options of {@link createLocalQueue}. */
export interface LocalQueueOptions extends Required<CommonJobQueueOptions> {
  name: string
  capabilities: { persistent: boolean; shared: boolean }
  /** How often to look for due jobs besides the wake-ups (a local enqueue, a run ending, the next due time). */
  pollMs: number
}

/**
 * A {@link JobQueue} running jobs in this process over `backend`. One claim loop at a time;
 * it runs again when a job is enqueued here, when a run ends, when the next waiting job is
 * due, and every `pollMs`. `close()` stops the loop, waits up to `closeTimeoutMs` for runs in
 * flight, and abandons the rest: their outcome, if one ever comes, is ignored, and the backend
 * keeps them as cut off (fs: in `active/`, run again after the next start).
 */
export function createLocalQueue<T>(kit: QueueKit, backend: LocalBackend<T>, options: LocalQueueOptions): JobQueue {
  const { closeTimeoutMs, maxRuns, backoffMs, onError, pollMs } = options
  const reportBackend = quietReporter(onError)
  type Run = { promise: Promise<void>; abandoned: boolean }
  const inFlight = new Set<Run>()
  let handler: ((job: QueuedJob) => Promise<JobOutcome>) | undefined
  let giveUp: (job: QueuedJob, reason: string) => Promise<boolean> = async () => true
  let concurrency = 1
  let started = false
  let stopping = false
  let closing: Promise<void> | undefined
  let timer: NodeJS.Timeout | undefined
  let pumping: Promise<void> | undefined
  let again = false
  let ready: Promise<void> | undefined

  const schedule = (delayMs: number): void => {
    clearTimeout(timer)
    if (stopping || !Number.isFinite(delayMs)) return
    timer = setTimeout(wake, Math.max(0, Math.min(delayMs, MAX_DELAY_MS)))
  }

  const wake = (): void => {
    if (!started || stopping) return
    if (pumping) {
      again = true
      return
    }
    pumping = pump().finally(() => {
      pumping = undefined
    })
  }

  const pump = async (): Promise<void> => {
    do {
      again = false
      try {
        await ready
        const free = concurrency - inFlight.size
        if (free <= 0) {
          schedule(pollMs)
          continue
        }
        const { claimed, nextAt } = await backend.claim(free, Date.now())
        for (const item of claimed) {
          if (stopping) {
            await backend.release(item).catch((error: unknown) => reportBackend(kit.storageError('release', error instanceof Error ? error.message : 'the backend failed', error)))
          } else {
            run(item)
          }
        }
        schedule(nextAt === null ? pollMs : Math.min(pollMs, nextAt - Date.now()))
      } catch (error) {
        reportBackend(kit.storageError('claim', error instanceof Error ? error.message : 'the backend failed', error))
        schedule(Number.isFinite(pollMs) ? pollMs : 1_000)
      }
    } while (again && !stopping)
  }

  /** Jobs given up earlier whose hook never resolved: announced again, once per start. */
  const announceLeftovers = async (): Promise<void> => {
    if (!backend.unannounced) return
    try {
      for (const { job, reason } of await backend.unannounced()) {
        if (stopping) return
        if (await giveUp(job, reason)) await backend.announced?.(job.id)
      }
    } catch (error) {
      reportBackend(kit.storageError('announce', error instanceof Error ? error.message : 'the backend failed', error))
    }
  }

  const run = (claimed: ClaimedJob<T>): void => {
    const { job } = claimed
    const entry: Run = { promise: Promise.resolve(), abandoned: false }
    entry.promise = (async () => {
      let end: RunEnd
      // Runs cut off (a crash, a stop) count too: a job that kills its process every time is
      // given up rather than run forever.
      if (job.attempt > maxRuns) {
        const reason = `gave up: ${job.attempt - 1} runs started, the last ones cut off (maxRuns)`
        onError(kit.storageError('run', `job ${job.id} failed: ${reason}`), { ...job })
        end = { kind: 'failed', reason, announced: await giveUp(job, reason) }
        await backend.finish(claimed, end).catch((error: unknown) => onError(kit.storageError('finish', error instanceof Error ? error.message : 'the backend failed', error), { ...job }))
        return
      }
      try {
        const outcome = readOutcome(kit, await handler!({ ...job }))
        end = 'done' in outcome ? { kind: 'done' } : { kind: 'retry', notBefore: Date.now() + outcome.retryInMs }
      } catch (error) {
        if (entry.abandoned) return
        onError(error, { ...job })
        end = { kind: 'retry', notBefore: Date.now() + backoffDelay(backoffMs, job.attempt) }
      }
      // Cut off by close(): the backend keeps the run as unfinished; this outcome came too late.
      if (entry.abandoned) return
      if (end.kind === 'retry' && job.attempt >= maxRuns) {
        const reason = `gave up after ${job.attempt} runs (maxRuns)`
        onError(kit.storageError('run', `job ${job.id} failed: ${reason}`), { ...job })
        // Before the backend forgets the job: a crash here runs it again, and the hook is called again.
        end = { kind: 'failed', reason, announced: await giveUp(job, reason) }
      }
      try {
        await backend.finish(claimed, end)
      } catch (error) {
        onError(kit.storageError('finish', error instanceof Error ? error.message : 'the backend failed', error), { ...job })
      }
    })().finally(() => {
      inFlight.delete(entry)
      wake()
    })
    inFlight.add(entry)
  }

  return {
    name: options.name,
    capabilities: options.capabilities,
    ...(backend.waiting ? { depth: () => backend.waiting!() } : {}),

    async enqueue(job: { id: string; delayMs?: number }): Promise<void> {
      const { id, delayMs } = kit.readEnqueue(job)
      if (closing) throw kit.storageError('enqueue', 'The queue was closed')
      try {
        await backend.add(id, Date.now() + delayMs)
      } catch (error) {
        if (LithoError.isInstance(error)) throw error
        throw kit.storageError('enqueue', error instanceof Error ? error.message : 'the backend failed', error)
      }
      wake()
    },

    start(jobHandler, startOptions: JobQueueStartOptions): void {
      ;({ concurrency, giveUp } = kit.readStart(jobHandler, startOptions, onError))
      if (started) throw new Error(`[${kit.label}] start: the queue was already started`)
      if (closing) throw new Error(`[${kit.label}] start: the queue was closed`)
      started = true
      handler = jobHandler
      ready = backend
        .recover()
        .catch((error: unknown) => {
          reportBackend(kit.storageError('recover', error instanceof Error ? error.message : 'the backend failed', error))
        })
        .then(announceLeftovers)
      wake()
    },

    close(): Promise<void> {
      closing ??= (async () => {
        stopping = true
        clearTimeout(timer)
        // A claim under way ends first: what it claimed is running or released.
        await pumping
        const runs = [...inFlight]
        const finished = await settlesWithin(Promise.all(runs.map((entry) => entry.promise)), closeTimeoutMs)
        if (!finished) for (const entry of inFlight) entry.abandoned = true
      })()
      return closing
    },
  }
}
