/**
 * The meter conformance suite: proves that a `Meter` (`@litho/core/contracts`) keeps the
 * contract written in its doc comment, including exact counting under concurrency.
 *
 * @module meter/run-meter-conformance
 */
import type { Meter } from '@litho/core/contracts'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { createMeterCaseContext, createRunPrefix, meterCases, type MeterCaseContext } from './meter-cases.js'

/** Options of {@link runMeterConformance}. */
export interface MeterConformanceOptions {
  /** Used in the describe title: `meter › <name>`. */
  name: string
  /** A meter; calling it again must give a meter over the SAME storage (needed for the persistence and sharing cases). */
  create: () => Meter | Promise<Meter>
  /** Cases to skip, by exact title, each with a reason. */
  skip?: Record<string, string>
}

/**
 * Registers the meter suite with vitest (call it at the top level of a test file). One meter is
 * created before the cases and disposed after them; the cases that need more call `create()`.
 * Every subject starts with a prefix unique to the run, so runs against a shared Redis never
 * collide; the suite cannot delete what it counted (the contract has no delete), so clean up
 * the backend's storage for that run yourself if it matters.
 *
 * Cases that test a capability (`persistent`, `shared`) are skipped unless the meter declares
 * it, and run when it does. A case skipped by name keeps its title and shows the reason.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_VALUE` when `skip` names a case that does not exist or gives no reason.
 * @example
 * import { runMeterConformance } from '@litho/testing'
 * import { redisMeter } from '@litho/storage-adapters/redis'
 *
 * runMeterConformance({ name: 'redis', create: () => redisMeter({ url: 'redis://127.0.0.1:6379', base: 'test:meter' }) })
 */
export function runMeterConformance(options: MeterConformanceOptions): void {
  const skip = options.skip ?? {}
  const titles = new Set(meterCases.map((c) => c.title))
  for (const [title, reason] of Object.entries(skip)) {
    if (!titles.has(title)) throw codedTypeError(`Expected skip to name a case of the meter suite but received ${JSON.stringify(title)}`)
    if (typeof reason !== 'string' || reason.trim() === '') throw codedTypeError(`Expected a reason to skip ${JSON.stringify(title)} but received none`)
  }

  describe(`meter › ${options.name}`, () => {
    let context: MeterCaseContext | undefined
    const prefix = createRunPrefix()

    beforeAll(async () => {
      context = createMeterCaseContext(await options.create(), options.create, prefix)
    })
    afterAll(async () => {
      await context?.meter.dispose?.()
    })

    for (const meterCase of meterCases) {
      it(meterCase.title, async (test) => {
        const reason = skip[meterCase.title]
        if (reason !== undefined) test.skip(reason)
        if (!context) throw new Error('The meter was not created (see the error of beforeAll)')
        if (meterCase.needs && !context.meter.capabilities[meterCase.needs]) {
          test.skip(`${context.meter.name} does not declare capabilities.${meterCase.needs}`)
        }
        await meterCase.run(context)
      })
    }
  })
}

function codedTypeError(message: string): TypeError & { code: 'ERR_INVALID_ARG_VALUE' } {
  return Object.assign(new TypeError(`[testing:meter] ${message}`), { code: 'ERR_INVALID_ARG_VALUE' as const })
}
