/**
 * Readiness (`GET /readyz`): can this instance serve traffic right now? One cheap read of each
 * store (a lookup of an id that does not exist, which on Redis is a round trip and on the
 * filesystem a stat) and the render workers' warm-up, each with a time limit.
 *
 * Anyone may call `/readyz`, so a probe never runs more than once at a time and its result is
 * reused for a second: a flood of calls costs one probe per second, not one per call.
 *
 * @module readiness
 */
import type { LithoBackends } from './backends.js'

/** The outcome of one readiness probe. */
export interface Readiness {
  ready: boolean
  /** What is not ready, e.g. `['designs', 'render workers']`; empty when ready. */
  failing: string[]
}

/** Options of {@link createReadiness}. */
export interface ReadinessOptions {
  /** Each check resolves when its part is ready and rejects (or times out) when it is not. */
  checks: Record<string, () => Promise<unknown>>
  /** How long one check may take before it counts as failing. @default 2000 */
  timeoutMs?: number
  /** How long a result is reused. @default 1000 */
  cacheMs?: number
  /** Told why a check failed (never shown to callers: messages may name hosts). */
  report?: (name: string, error: unknown) => void
}

/**
 * A readiness probe over named checks.
 *
 * @example
 * const readiness = createReadiness({ checks: { redis: () => redis.ping() } })
 * const { ready, failing } = await readiness.check() // { ready: false, failing: ['redis'] }
 */
export function createReadiness(options: ReadinessOptions): { check(): Promise<Readiness> } {
  const timeoutMs = options.timeoutMs ?? 2000
  const cacheMs = options.cacheMs ?? 1000
  let last: { at: number; result: Readiness } | undefined
  let running: Promise<Readiness> | undefined

  async function probe(): Promise<Readiness> {
    const names = Object.keys(options.checks)
    const outcomes = await Promise.all(
      names.map(async (name) => {
        let timer: NodeJS.Timeout | undefined
        try {
          await Promise.race([options.checks[name]!(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)))])
          return true
        } catch (error) {
          options.report?.(name, error)
          return false
        } finally {
          clearTimeout(timer)
        }
      }),
    )
    const failing = names.filter((_, index) => !outcomes[index])
    return { ready: failing.length === 0, failing }
  }

  return {
    check() {
      if (last && performance.now() - last.at < cacheMs) return Promise.resolve(last.result)
      running ??= probe().then((result) => {
        last = { at: performance.now(), result }
        running = undefined
        return result
      })
      return running
    },
  }
}

/** The checks of a `litho serve` process: every store, and the render workers. */
export function backendChecks(backends: LithoBackends, workersReady: () => Promise<void>): Record<string, () => Promise<unknown>> {
  // Ids that fit every store's alphabet and name nothing: a lookup that finds nothing is the cheapest read.
  const id = 'readyz-probe'
  return {
    designs: () => backends.designs.get(id),
    accounts: () => backends.accounts.getUser(id),
    meter: () => backends.meter.usage({ subject: id, window: 'readyz' }),
    'oauth state': () => backends.authState.get(`readyz.${id}`),
    'export jobs': () => backends.jobs.get(id),
    files: () => backends.files.get(`readyz/${id}`),
    'render workers': workersReady,
  }
}
