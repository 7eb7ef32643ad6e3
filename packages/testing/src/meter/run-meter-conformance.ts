/**
 * The meter conformance suite: proves that a `Meter` (`@litho/core/contracts`) keeps the
 * contract written in its doc comment, including exact counting under concurrency.
 *
 * @module meter/run-meter-conformance
 */
import type { Meter } from '@litho/core/contracts'
import { registerSuite } from '../_suite.js'
import { createMeterCaseContext, meterCases } from './meter-cases.js'

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
  registerSuite({
    suite: 'meter',
    subject: 'meter',
    name: options.name,
    cases: meterCases,
    skip: options.skip,
    open: async () => createMeterCaseContext(await options.create(), options.create),
    close: ({ meter }) => meter.dispose?.(),
    unmet: (meterCase, { meter }) => {
      if (meterCase.needs && !meter.capabilities[meterCase.needs]) return `${meter.name} does not declare capabilities.${meterCase.needs}`
      if (meterCase.needsMethod && typeof meter[meterCase.needsMethod] !== 'function') return `${meter.name} has no ${meterCase.needsMethod}() (optional)`
      return undefined
    },
  })
}
