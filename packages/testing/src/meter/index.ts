/**
 * @litho/testing/meter: the conformance suite for meters. Its own entry because it
 * registers vitest tests, so the image helpers and fixtures can be used without vitest.
 *
 * @module @litho/testing/meter
 */
export { runMeterConformance, type MeterConformanceOptions } from './run-meter-conformance.js'
