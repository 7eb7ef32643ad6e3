/**
 * What the conformance suites share: checking the skips a caller declares, a prefix unique to a
 * run, and registering the cases with vitest around one subject (a meter, a store) made for the
 * run. Internal: not exported.
 *
 * @module _suite
 */
import { afterAll, beforeAll, describe, it } from 'vitest'

/** A case as the runner needs it: a stable title (also the name to skip it by) and a body. */
export interface SuiteCase<C> {
  title: string
  run: (context: C) => Promise<void>
}

/** One suite run for {@link registerSuite}. */
export interface SuiteRun<C, K extends SuiteCase<C>> {
  /** The suite, e.g. `design store`: the describe title is `<suite> › <name>`. */
  suite: string
  /** What the suite tests, e.g. `store`, named when it could not be created. */
  subject: string
  /** The caller's name for this run, e.g. `redis`. */
  name: string
  cases: readonly K[]
  /** Cases to skip, by exact title, each with a reason. */
  skip: Record<string, string> | undefined
  /** Makes the subject and the cases' context, before the first case. */
  open: () => Promise<C>
  /** Disposes the subject, after the last case. */
  close: (context: C) => Promise<void> | undefined
  /** Why this subject cannot run `testCase` (a capability it lacks, an option not given), or undefined. */
  unmet?: (testCase: K, context: C) => string | undefined
}

/**
 * Registers a suite with vitest (call it at the top level of a test file), after checking its
 * skips. A case skipped by name keeps its title and shows the reason; so does a case the subject
 * cannot run (see {@link SuiteRun.unmet}).
 *
 * @throws {TypeError} `ERR_INVALID_ARG_VALUE` when `skip` names a case that does not exist or gives no reason.
 */
export function registerSuite<C, K extends SuiteCase<C>>(run: SuiteRun<C, K>): void {
  const { suite, subject, name, cases, open, close, unmet } = run
  const skip = run.skip ?? {}
  // Thrown now, not in a case: a typo in a title must not silently run the case it meant to skip.
  const titles = new Set(cases.map((c) => c.title))
  for (const [title, reason] of Object.entries(skip)) {
    if (!titles.has(title)) throw invalidValue(suite, `Expected skip to name a case of the ${suite} suite but received ${JSON.stringify(title)}`)
    if (typeof reason !== 'string' || reason.trim() === '') throw invalidValue(suite, `Expected a reason to skip ${JSON.stringify(title)} but received none`)
  }

  describe(`${suite} › ${name}`, () => {
    let context: C | undefined

    beforeAll(async () => {
      context = await open()
    })
    afterAll(async () => {
      if (context) await close(context)
    })

    for (const testCase of cases) {
      it(testCase.title, async (test) => {
        const reason = skip[testCase.title]
        if (reason !== undefined) test.skip(reason)
        if (!context) throw new Error(`The ${subject} was not created (see the error of beforeAll)`)
        const missing = unmet?.(testCase, context)
        if (missing !== undefined) test.skip(missing)
        await testCase.run(context)
      })
    }
  })
}

/**
 * A prefix unique to one run, so runs against a shared backend (Redis, a bucket) never see each
 * other's data. Only `[A-Za-z0-9_-]`, and short: store ids are at most 64 characters.
 */
export function createRunPrefix(): string {
  return `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
}

/** `[testing:<suite>]`-prefixed, e.g. `[testing:design-store]`. */
function invalidValue(suite: string, message: string): TypeError & { code: 'ERR_INVALID_ARG_VALUE' } {
  return Object.assign(new TypeError(`[testing:${suite.replaceAll(' ', '-')}] ${message}`), { code: 'ERR_INVALID_ARG_VALUE' as const })
}
