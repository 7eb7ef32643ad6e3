/**
 * The job queue in files, the embedded default. Internal: `fsJobQueue` is exported by
 * `job-queue.ts`.
 *
 * Layout under `dir` (one file per job, its JSON `{"id","attempts","enqueuedAt"}`, `attempts`
 * being the runs started so far):
 * - `ready/<notBefore>-<id>.json`: waiting; `notBefore` is epoch milliseconds, zero-padded to
 *   15 digits so names sort by time.
 * - `active/<id>.json`: running. A job is claimed by renaming it here (atomic).
 * - `failed/<id>.json`: given up after `maxRuns`, with `reason`, `failedAt` and `announced`
 *   (whether `onGiveUp` resolved); kept for a person to look at. The queue reads it again only
 *   when `announced` is false: the next start calls `onGiveUp` again, until it resolves.
 * - `tmp/`: files being written; each is renamed into `ready/` or `failed/` when complete (one
 *   left by a crash is removed by a later start once it is a minute old).
 *
 * @module fs/job-queue
 */
import { randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { JobQueue } from '@litho/core/contracts'
import { directoryLock } from '../kit/locks.js'
import { createLocalQueue, queueKit, readCommonOptions, type ClaimedJob, type CommonJobQueueOptions, type LocalBackend } from '../kit/job-queue.js'
import { describe } from '../kit/validate.js'

/** Options of {@link fsJobQueue}. */
export interface FsJobQueueOptions extends CommonJobQueueOptions {
  /** The directory of the queue (**required**); created at the first enqueue or start. One process per directory. */
  dir: string
  /** How often `ready/` is read for due jobs (a local enqueue and a run ending wake the queue at once). @default 250 */
  pollMs?: number
}

const kit = queueKit('fs')
const READY_RE = /^(\d{15})-([A-Za-z0-9_-]{1,64})\.json$/
const ACTIVE_RE = /^([A-Za-z0-9_-]{1,64})\.json$/
const DEFAULT_POLL_MS = 250
/** A file in `tmp/` older than this is left over from a crash. */
const STALE_TMP_MS = 60_000

/** What a claimed job carries: enough to put it back or move it on. */
interface Token {
  id: string
  /** Runs started before this one. */
  attempts: number
  notBefore: number
  enqueuedAt: string
}

/**
 * A job queue in files under `options.dir`: jobs survive restarts and crashes
 * (capabilities `{ persistent: true, shared: false }`). One process per directory: claims are
 * atomic renames, but the duplicate check of `enqueue` and the recovery at `start` assume no
 * other process works in the directory.
 *
 * - `enqueue` writes `ready/<notBefore>-<id>.json` (to `tmp/`, then renamed) before it
 *   resolves; an id already waiting or running is not added again.
 * - The queue reads `ready/` every `pollMs`, and at once after a local enqueue or a run ending;
 *   a due job is claimed by renaming it to `active/<id>.json`.
 * - `{ done: true }` deletes the active file. `{ retryInMs }`, or a handler that throws
 *   (backoff `backoffMs × 2^(attempt-1)`, at most 5 minutes), writes the job back to `ready/`
 *   with the new time and `attempts + 1`, then deletes the active file; after `maxRuns` runs it
 *   goes to `failed/` instead.
 * - `start` first moves everything left in `active/` (a run cut off by a crash or by `close()`)
 *   back to `ready/`, counting the cut-off run: it runs again, with the next attempt number.
 * - `close()` stops reading `ready/` and waits up to `closeTimeoutMs` for runs in flight; a run
 *   still going then stays in `active/` and runs again after the next start.
 *
 * @throws {TypeError} `ERR_MISSING_OPTION`, `ERR_INVALID_ARG_TYPE` or `ERR_INVALID_ARG_VALUE` for a bad option.
 * @example
 * const queue = fsJobQueue({ dir: '.data/jobs-queue' })
 * queue.start(runExport, { concurrency: 2 })
 * await queue.enqueue({ id: 'exp_3Jx9Qm2LpZ7a' })
 */
export function fsJobQueue(options: FsJobQueueOptions): JobQueue {
  const { dir: given, pollMs: givenPollMs } = (options ?? {}) as Partial<FsJobQueueOptions>
  if (given === undefined || given === '') throw kit.typeError('ERR_MISSING_OPTION', 'Expected option dir (a directory) but received none')
  if (typeof given !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option dir to be a string but received ${describe(given)}`)
  const common = readCommonOptions(kit, options)
  const pollMs = kit.readNumber('option pollMs', givenPollMs, 1, 3_600_000, DEFAULT_POLL_MS)
  const dir = resolve(given)
  // One lock per directory for the whole process: two queues on one directory in one process
  // (a queue closed and a new one started) never move the same job at once.
  const withLock = directoryLock('fs-job-queue', dir)
  const readyDir = join(dir, 'ready')
  const activeDir = join(dir, 'active')
  const failedDir = join(dir, 'failed')
  const tmpDir = join(dir, 'tmp')

  /** Made at every enqueue and claim (cheap when they exist): a directory removed under the queue comes back. */
  const ensureDirs = async (): Promise<void> => {
    for (const path of [readyDir, activeDir, failedDir, tmpDir]) await mkdir(path, { recursive: true })
  }

  const readyName = (notBefore: number, id: string) => `${String(Math.max(0, Math.floor(notBefore))).padStart(15, '0')}-${id}.json`
  const activePath = (id: string) => join(activeDir, `${id}.json`)

  /** Writes `content` to `target` through `tmp/`: a crash mid-write never leaves a truncated job. */
  const writeAtomic = async (target: string, content: unknown): Promise<void> => {
    const temporary = join(tmpDir, randomUUID())
    await writeFile(temporary, JSON.stringify(content))
    try {
      await rename(temporary, target)
    } catch (error) {
      await rm(temporary, { force: true })
      throw error
    }
  }

  /** The waiting jobs, parsed from their names, in the order they are due. */
  const listReady = async (): Promise<Array<{ name: string; notBefore: number; id: string }>> => {
    const entries: Array<{ name: string; notBefore: number; id: string }> = []
    for (const name of await readdir(readyDir)) {
      const match = READY_RE.exec(name)
      if (match) entries.push({ name, notBefore: Number(match[1]), id: match[2]! })
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  /** Reads a job file; null when it is not a job of `id` (damaged, or written by hand). */
  const readJob = async (path: string, id: string): Promise<{ attempts: number; enqueuedAt: string } | null> => {
    try {
      const value = JSON.parse(await readFile(path, 'utf8')) as { id?: unknown; attempts?: unknown; enqueuedAt?: unknown }
      if (value.id !== id || !Number.isSafeInteger(value.attempts) || (value.attempts as number) < 0) return null
      return { attempts: value.attempts as number, enqueuedAt: typeof value.enqueuedAt === 'string' ? value.enqueuedAt : new Date().toISOString() }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error
      return null
    }
  }

  /** Moves a file that cannot be read as a job to `failed/`, so it never blocks the queue. */
  const quarantine = async (path: string, id: string): Promise<void> => {
    await writeAtomic(join(failedDir, `${id}.json`), { id, attempts: null, reason: 'unreadable job file', failedAt: new Date().toISOString() })
    await rm(path, { force: true })
  }

  const backend: LocalBackend<Token> = {
    async add(id, notBefore) {
      await ensureDirs()
      await withLock(id, async () => {
        // Checked under the lock every move of this id takes: nothing can slip between.
        if ((await listReady()).some((entry) => entry.id === id)) return
        if ((await readdir(activeDir)).includes(`${id}.json`)) return
        await writeAtomic(join(readyDir, readyName(notBefore, id)), { id, attempts: 0, enqueuedAt: new Date().toISOString() })
      })
    },

    async recover() {
      await ensureDirs()
      // Files a crash left half-written; the age spares writes under way (an enqueue right now).
      for (const name of await readdir(tmpDir)) {
        const path = join(tmpDir, name)
        const info = await stat(path).catch(() => undefined)
        if (info && info.mtimeMs < Date.now() - STALE_TMP_MS) await rm(path, { force: true })
      }
      const waiting = new Set((await listReady()).map((entry) => entry.id))
      for (const name of await readdir(activeDir)) {
        const match = ACTIVE_RE.exec(name)
        if (!match) continue
        const id = match[1]!
        await withLock(id, async () => {
          const path = activePath(id)
          // A retry that was written back to ready/ before the crash: the run is accounted for.
          if (waiting.has(id)) return rm(path, { force: true })
          const job = await readJob(path, id).catch(() => undefined)
          if (job === undefined) return
          if (job === null) return quarantine(path, id)
          // The cut-off run counts as started: the next one has the next attempt number.
          await writeAtomic(join(readyDir, readyName(Date.now(), id)), { id, attempts: job.attempts + 1, enqueuedAt: job.enqueuedAt })
          await rm(path, { force: true })
        })
      }
    },

    async claim(max, now) {
      await ensureDirs()
      const claimed: Array<ClaimedJob<Token>> = []
      let nextAt: number | null = null
      for (const entry of await listReady()) {
        if (entry.notBefore > now) {
          nextAt = entry.notBefore
          break
        }
        if (claimed.length === max) break
        const job = await withLock(entry.id, async () => {
          const path = activePath(entry.id)
          try {
            await rename(join(readyDir, entry.name), path)
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
            throw error
          }
          const read = await readJob(path, entry.id)
          if (read === null) await quarantine(path, entry.id)
          return read ?? undefined
        })
        if (job) claimed.push({ job: { id: entry.id, attempt: job.attempts + 1 }, token: { id: entry.id, attempts: job.attempts, notBefore: entry.notBefore, enqueuedAt: job.enqueuedAt } })
      }
      return { claimed, nextAt }
    },

    async finish({ token }, end) {
      const { id, enqueuedAt } = token
      const attempts = token.attempts + 1
      await withLock(id, async () => {
        if (end.kind === 'retry') await writeAtomic(join(readyDir, readyName(end.notBefore, id)), { id, attempts, enqueuedAt })
        if (end.kind === 'failed') await writeAtomic(join(failedDir, `${id}.json`), { id, attempts, enqueuedAt, reason: end.reason, failedAt: new Date().toISOString(), announced: end.announced })
        await rm(activePath(id), { force: true })
      })
    },

    async unannounced() {
      await ensureDirs()
      const left: Array<{ job: { id: string; attempt: number }; reason: string }> = []
      for (const name of await readdir(failedDir)) {
        const match = ACTIVE_RE.exec(name)
        if (!match) continue
        const value = JSON.parse(await readFile(join(failedDir, name), 'utf8').catch(() => '{}')) as { id?: unknown; attempts?: unknown; reason?: unknown; announced?: unknown }
        // Only files that say so: older ones (no field) and quarantined ones are left alone.
        if (value.announced !== false || value.id !== match[1]) continue
        left.push({ job: { id: match[1]!, attempt: Number.isSafeInteger(value.attempts) ? (value.attempts as number) : 0 }, reason: typeof value.reason === 'string' ? value.reason : 'gave up' })
      }
      return left
    },

    async announced(id) {
      await withLock(id, async () => {
        const path = join(failedDir, `${id}.json`)
        const value = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
        await writeAtomic(path, { ...value, announced: true })
      })
    },

    async release({ token }) {
      await withLock(token.id, () => rename(activePath(token.id), join(readyDir, readyName(token.notBefore, token.id))))
    },

    async waiting() {
      await ensureDirs()
      return (await listReady()).length
    },
  }

  return createLocalQueue(kit, backend, { ...common, name: 'fs', capabilities: { persistent: true, shared: false }, pollMs })
}
