/**
 * A small pool of worker threads that verifies passwords, apart from libuv's thread pool.
 * scrypt with the default parameters takes 128 MiB and about half a second; on libuv's pool
 * (4 threads, shared with every fs call) a few concurrent sign-ins stall the file stores and
 * so every render. Here at most `threads` hashes run at once, on threads of their own, a short
 * queue waits behind them, and anything beyond is refused at once with
 * {@link PasswordHashingBusyError} (the sign-in page answers 503 with `Retry-After`).
 *
 * @module password-pool
 */
import { Worker } from 'node:worker_threads'
import { parseStoredHash } from './passwords.js'

/** Verifies a password against a stored hash (see {@link verifyPassword}). */
export interface PasswordVerifier {
  /**
   * True when `password` matches `stored`; false for a wrong password or a malformed hash.
   *
   * @throws PasswordHashingBusyError when the pool and its queue are full.
   */
  verify(password: unknown, stored: string): Promise<boolean>
  /**
   * Seconds to wait when a verification asked for now would be refused (the pool and its queue
   * are full), else undefined: lets a caller refuse before doing any other work.
   */
  retryAfter?(): number | undefined
  /** Stops the threads; later calls start them again. */
  close(): Promise<void>
}

/** Options of {@link createPasswordPool}. */
export interface PasswordPoolOptions {
  /** Hashes at once, each on a thread of its own. @default 1 */
  threads?: number
  /** Verifications waiting for a thread before new ones are refused. @default 4 */
  maxQueue?: number
}

/** The pool and its queue are full: try again in `retryAfterSeconds`. */
export class PasswordHashingBusyError extends Error {
  override readonly name = 'PasswordHashingBusyError'
  readonly code = 'ERR_PASSWORD_HASHING_BUSY'
  constructor(readonly retryAfterSeconds: number) {
    super(`Password hashing is busy; try again in ${retryAfterSeconds} s`)
  }
}

// The worker runs the same verifyPassword, with scrypt synchronous on the worker's own thread
// (the async form would go back to libuv's pool). Inline, so it works from sources and dist.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { scryptSync, timingSafeEqual } = require('node:crypto')
// Lowest CPU priority for this thread (Linux: setpriority on a thread id), so that on a busy
// machine renders and the event loop run first and sign-ins wait.
try { require('node:os').setPriority(Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()), 19) } catch {}
parentPort.on('message', ({ id, password, salt, expected, params }) => {
  let ok = false
  try {
    const key = scryptSync(password.normalize('NFC'), Buffer.from(salt, 'base64url'), 32, { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r })
    const want = Buffer.from(expected, 'base64url')
    ok = key.length === want.length && timingSafeEqual(key, want)
  } catch {
    ok = false
  }
  parentPort.postMessage({ id, ok })
})
`


interface Job {
  id: number
  message: { id: number; password: string; salt: string; expected: string; params: { N: number; r: number; p: number } }
  resolve: (ok: boolean) => void
  reject: (error: unknown) => void
}

interface Slot {
  worker: Worker
  job: Job | null
  startedAt: number
}

function whole(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < min) throw Object.assign(new TypeError(`Expected options.${name} to be a whole number ≥ ${min} but received ${value}`), { code: 'ERR_INVALID_ARG_VALUE' })
  return value
}

/**
 * Creates a password pool. Threads start on first use and are unreferenced while idle, so an
 * idle pool never keeps a process alive.
 *
 * @example
 * const pool = createPasswordPool({ threads: 1, maxQueue: 4 })
 * const ok = await pool.verify(form.get('password'), user.passwordHash) // may throw PasswordHashingBusyError
 */
export function createPasswordPool(options: PasswordPoolOptions = {}): PasswordVerifier {
  const threads = whole('threads', options.threads, 1, 1)
  const maxQueue = whole('maxQueue', options.maxQueue, 4, 0)
  const slots: Slot[] = []
  const queue: Job[] = []
  let nextId = 1
  // A rough expectation of one hash, for Retry-After: refreshed from what the pool observes.
  let hashSeconds = 0.5

  function spawn(): Slot {
    // No inherited flags: `--input-type=module` (or a loader) would turn this CommonJS into ESM.
    const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] })
    const slot: Slot = { worker, job: null, startedAt: 0 }
    worker.on('message', (reply: { id: number; ok: boolean }) => {
      const job = slot.job
      if (!job || job.id !== reply.id) return
      hashSeconds = 0.8 * hashSeconds + 0.2 * ((performance.now() - slot.startedAt) / 1000)
      slot.job = null
      job.resolve(reply.ok)
      next(slot)
    })
    const fail = (error: unknown) => {
      // A dead worker (out of memory…) fails its job; a fresh one takes its place on demand.
      const index = slots.indexOf(slot)
      if (index >= 0) slots.splice(index, 1)
      slot.job?.reject(error)
      slot.job = null
      drain()
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`password worker exited with code ${code}`)))
    slots.push(slot)
    return slot
  }

  function next(slot: Slot): void {
    const job = queue.shift()
    if (!job) {
      slot.worker.unref()
      return
    }
    slot.job = job
    slot.startedAt = performance.now()
    slot.worker.ref()
    slot.worker.postMessage(job.message)
  }

  function drain(): void {
    while (queue.length > 0) {
      const idle = slots.find((s) => s.job === null) ?? (slots.length < threads ? spawn() : undefined)
      if (!idle) return
      next(idle)
    }
  }

  function retryAfter(): number | undefined {
    const busy = slots.filter((s) => s.job !== null).length
    if (busy < threads || queue.length < maxQueue) return undefined
    return Math.max(1, Math.ceil(((queue.length + 1) * hashSeconds) / threads))
  }

  return {
    retryAfter,
    async verify(password, stored) {
      const parsed = parseStoredHash(password, stored)
      if (!parsed) return false
      const wait = retryAfter()
      if (wait !== undefined) throw new PasswordHashingBusyError(wait)
      return new Promise<boolean>((resolve, reject) => {
        const id = nextId++
        queue.push({ id, message: { id, password: password as string, ...parsed }, resolve, reject })
        drain()
      })
    },
    async close() {
      const running = slots.splice(0)
      for (const job of queue.splice(0)) job.reject(new Error('The password pool was closed'))
      await Promise.all(running.map((s) => s.worker.terminate()))
    },
  }
}

let shared: PasswordVerifier | undefined

/**
 * The process-wide pool (one thread, a queue of 4) that every authorization server of the
 * process uses unless given its own: the bound holds however many servers a process runs.
 *
 * @example const ok = await sharedPasswordPool().verify(password, user.passwordHash)
 */
export function sharedPasswordPool(): PasswordVerifier {
  shared ??= createPasswordPool()
  return shared
}
