// The job suites themselves: the queue suite passes a small reference queue written here (in
// process, but persistent and shared: its backend is an object the instances share, so every
// case runs), and each case that guards a rule fails for a queue that breaks it (runs a job
// twice, early, too many at once, forgets jobs, loses a cut-off run, lets two instances take one
// job). Likewise for the store suite; and the runners refuse skips that name no case.
import type { JobOutcome, JobQueue, JobRecord, JobStore, QueuedJob } from '@litho/core/contracts'
import { LithoError } from '@litho/core/errors'
import { describe, expect, it } from 'vitest'
import { runJobQueueConformance, runJobStoreConformance } from '../src/job-queue/index.js'
import { createJobQueueCaseContext, jobQueueCases, type JobQueueFactoryOptions } from '../src/job-queue/job-queue-cases.js'
import { createJobStoreCaseContext, jobStoreCases } from '../src/job-queue/job-store-cases.js'

// --- a reference queue, with faults to switch on ---

interface Faults {
  /** Calls the handler twice per run. */
  runTwice?: boolean
  /** Runs delayed jobs at once. */
  ignoreDelay?: boolean
  /** Takes every due job, whatever the concurrency. */
  ignoreConcurrency?: boolean
  /** Runs a job that asked for `{ retryInMs }` again at once. */
  retryAtOnce?: boolean
  /** Drops the jobs that did not run when an instance closes. */
  forgetOnClose?: boolean
  /** Drops a run cut off by close() instead of putting it back. */
  dropCutOff?: boolean
  /** Does not mark a job taken: every instance runs it. */
  noClaim?: boolean
  /** Drops a job at its last run without calling onGiveUp. */
  silentGiveUp?: boolean
}

/** Runs of one job in the reference queue before it gives up. */
const REFERENCE_MAX_RUNS = 5

interface Entry {
  id: string
  runs: number
  notBefore: number
  taken: boolean
}

/** One backend per space, shared by every instance made on it. */
const backends = new Map<string, Map<string, Entry>>()

function referenceQueue({ space, closeTimeoutMs }: JobQueueFactoryOptions, faults: Faults = {}): JobQueue {
  const jobs = backends.get(space) ?? new Map<string, Entry>()
  backends.set(space, jobs)
  const inFlight = new Map<Promise<void>, { entry: Entry; token: object }>()
  const abandoned = new Set<object>()
  let timer: NodeJS.Timeout | undefined
  let closing: Promise<void> | undefined

  const invalid = (code: string, message: string) => Object.assign(new TypeError(message), { code })

  const poll = (handler: (job: QueuedJob) => Promise<JobOutcome>, concurrency: number, onGiveUp?: (job: QueuedJob, reason: string) => Promise<void>) => {
    const now = Date.now()
    for (const entry of [...jobs.values()].sort((a, b) => a.notBefore - b.notBefore)) {
      if (!faults.ignoreConcurrency && inFlight.size >= concurrency) break
      if ((entry.taken && !faults.noClaim) || entry.notBefore > now) continue
      entry.taken = true
      entry.runs += 1
      const job = { id: entry.id, attempt: entry.runs }
      const token = {}
      const run = (async () => {
        let outcome: JobOutcome | undefined
        try {
          outcome = await handler({ ...job })
          if (faults.runTwice) await handler({ ...job })
        } catch {
          outcome = undefined
        }
        if (abandoned.has(token)) return
        if (outcome && 'done' in outcome) jobs.delete(entry.id)
        else if (entry.runs >= REFERENCE_MAX_RUNS) {
          if (!faults.silentGiveUp) await onGiveUp?.({ ...job }, `gave up after ${entry.runs} runs`).catch(() => {})
          jobs.delete(entry.id)
        } else {
          entry.taken = false
          entry.notBefore = Date.now() + (outcome ? (faults.retryAtOnce ? 0 : outcome.retryInMs) : 20)
        }
      })().finally(() => inFlight.delete(run))
      inFlight.set(run, { entry, token })
    }
  }

  return {
    name: 'reference',
    capabilities: { persistent: true, shared: true },
    async enqueue(job) {
      const { id, delayMs = 0 } = (job ?? {}) as { id?: unknown; delayMs?: unknown }
      if (typeof id !== 'string') throw invalid('ERR_INVALID_ARG_TYPE', 'id')
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw invalid('ERR_INVALID_ARG_VALUE', 'id')
      if (typeof delayMs !== 'number') throw invalid('ERR_INVALID_ARG_TYPE', 'delayMs')
      if (!Number.isSafeInteger(delayMs) || delayMs < 0) throw invalid('ERR_INVALID_ARG_VALUE', 'delayMs')
      if (closing) throw new LithoError('ERR_STORAGE', 'closed')
      if (!jobs.has(id)) jobs.set(id, { id, runs: 0, notBefore: Date.now() + (faults.ignoreDelay ? 0 : delayMs), taken: false })
    },
    start(handler, { concurrency, onGiveUp }) {
      timer = setInterval(() => poll(handler, concurrency, onGiveUp), 5)
    },
    close() {
      closing ??= (async () => {
        clearInterval(timer)
        const runs = [...inFlight.keys()]
        const finished = await Promise.race([Promise.all(runs).then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), closeTimeoutMs))])
        if (!finished) {
          for (const { entry, token } of inFlight.values()) {
            abandoned.add(token)
            // A crash: the run is given up; a lock expiring would put it back like this.
            if (faults.dropCutOff) jobs.delete(entry.id)
            else entry.taken = false
          }
        }
        if (faults.forgetOnClose) for (const [id, entry] of jobs) if (!entry.taken) jobs.delete(id)
      })()
      return closing
    },
  }
}

runJobQueueConformance({ name: 'reference (in this test)', create: (options) => referenceQueue(options) })

describe('job queue conformance › control', () => {
  let index = 1_000
  /** Runs the case titled like `pattern` on a queue with `faults`; resolves with its error, if any. */
  const runCase = async (pattern: RegExp, faults: Faults): Promise<unknown> => {
    const found = jobQueueCases.filter((c) => pattern.test(c.title))
    if (found.length !== 1) throw new Error(`expected one case matching ${pattern}, found ${found.length}`)
    const create = (options: JobQueueFactoryOptions) => referenceQueue(options, faults)
    const probe = create({ space: `probe-${index}`, closeTimeoutMs: 200 })
    const { context, closeQueues } = createJobQueueCaseContext(probe, create, { prefix: 'control', index: index++, closeTimeoutMs: 200, recoveryTimeoutMs: 2_000 })
    try {
      await found[0]!.run(context)
      return undefined
    } catch (error) {
      return error
    } finally {
      await closeQueues()
      await probe.close()
    }
  }

  it('a queue that runs a job twice fails the once and the 50-jobs cases', async () => {
    expect(await runCase(/handed to the handler once/, { runTwice: true })).toBeInstanceOf(Error)
    expect(await runCase(/50 jobs enqueued at once/, { runTwice: true })).toBeInstanceOf(Error)
  })

  it('a queue that runs delayed jobs early fails the delay case', async () => {
    expect(String(await runCase(/delayMs: the job runs no sooner/, { ignoreDelay: true }))).toMatch(/runs first|ms from enqueue/)
  })

  it('a queue that runs a retry at once fails the retryInMs case', async () => {
    expect(String(await runCase(/retryInMs \} runs the job again/, { retryAtOnce: true }))).toMatch(/ms between run/)
  })

  it('a queue that ignores concurrency fails the concurrency case', async () => {
    expect(String(await runCase(/concurrency: never more than N/, { ignoreConcurrency: true }))).toMatch(/most runs at once/)
  })

  it('a persistent queue that forgets waiting jobs at close fails the durable case', async () => {
    expect(await runCase(/durable: jobs enqueued on a queue closed/, { forgetOnClose: true })).toBeInstanceOf(Error)
  })

  it('a queue that loses a run cut off by close() fails both crash cases', async () => {
    expect(String(await runCase(/crash: a run cut off by close\(\) runs again on a new instance/, { dropCutOff: true }))).toMatch(/never ran again/)
    expect(String(await runCase(/crash: a run cut off on one instance/, { dropCutOff: true }))).toMatch(/never ran on the other instance/)
  })

  it('a queue that drops a job it gives up on without announcing it fails the give-up case', async () => {
    expect(String(await runCase(/announced to onGiveUp once/, { silentGiveUp: true }))).toMatch(/onGiveUp was never called/)
  })

  it('a shared queue whose instances both take a job fails the shared case', async () => {
    expect(await runCase(/shared: two instances on one backend run 40 jobs/, { noClaim: true })).toBeInstanceOf(Error)
  })

  it('runJobQueueConformance refuses to skip a case that does not exist, or without a reason', () => {
    const create = (options: JobQueueFactoryOptions) => referenceQueue(options)
    expect(() => runJobQueueConformance({ name: 'x', create, skip: { 'job queue › no such case': 'typo' } })).toThrow(expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' }))
    expect(() => runJobQueueConformance({ name: 'x', create, skip: { [jobQueueCases[0]!.title]: ' ' } })).toThrow(/Expected a reason/)
  })
})

// --- the store suite's controls ---

/** WRONG on purpose, as `faults` says; otherwise a plain map of JSON copies. */
function naiveStore(faults: { sharesObjects?: boolean; noConflict?: boolean; merges?: boolean } = {}): JobStore {
  const records = new Map<string, JobRecord>()
  const copy = (record: JobRecord) => (faults.sharesObjects ? record : (JSON.parse(JSON.stringify(record)) as JobRecord))
  return {
    name: 'naive',
    async create(record) {
      if (!faults.noConflict && records.has(record.id)) throw new LithoError('ERR_STORE_CONFLICT', 'taken')
      records.set(record.id, copy(record))
    },
    async get(id) {
      const record = records.get(id)
      return record ? copy(record) : null
    },
    async update(record) {
      const stored = records.get(record.id)
      if (!stored) return false
      records.set(record.id, copy(faults.merges ? { ...stored, ...record } : record))
      return true
    },
  }
}

describe('job store conformance › control', () => {
  const runCase = async (pattern: RegExp, store: JobStore): Promise<unknown> => {
    const found = jobStoreCases.filter((c) => pattern.test(c.title))
    if (found.length !== 1) throw new Error(`expected one case matching ${pattern}, found ${found.length}`)
    return found[0]!.run(createJobStoreCaseContext(store, () => store)).then(
      () => undefined,
      (error: unknown) => error,
    )
  }

  it('a store that returns its own objects fails the copies case', async () => {
    expect(await runCase(/returned records are copies/, naiveStore({ sharesObjects: true }))).toBeInstanceOf(Error)
  })

  it('a store that lets a second create overwrite fails the conflict cases', async () => {
    expect(await runCase(/create rejects a reused id/, naiveStore({ noConflict: true }))).toBeInstanceOf(Error)
    expect(await runCase(/concurrent creates of one id/, naiveStore({ noConflict: true }))).toBeInstanceOf(Error)
  })

  it('a store that merges updates fails the update case', async () => {
    expect(await runCase(/update replaces an existing record/, naiveStore({ merges: true }))).toBeInstanceOf(Error)
  })

  it('runJobStoreConformance refuses to skip a case that does not exist', () => {
    expect(() => runJobStoreConformance({ name: 'x', create: () => naiveStore(), skip: { 'job store › no such case': 'typo' } })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' }),
    )
  })
})
