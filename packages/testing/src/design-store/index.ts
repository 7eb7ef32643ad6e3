/**
 * @litho/testing/design-store: the conformance suite for design stores. Its own entry because
 * it registers vitest tests, so the image helpers and fixtures can be used without vitest.
 *
 * @module @litho/testing/design-store
 */
export { runDesignStoreConformance, type DesignStoreConformanceOptions } from './run-design-store-conformance.js'
