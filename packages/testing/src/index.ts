/**
 * @litho/testing: the test kit for Litho and its adapters.
 *
 * @module @litho/testing
 */

// Image assertions
export { compareImages, expectToMatchGolden, type CompareOptions, type GoldenOptions, type ImageComparison } from './compare-images.js'

// Fixtures
export { syntheticPhoto, syntheticPhotoDataUri } from './fixtures/photo.js'
export { linkPreview, poster, referenceDesigns, socialCard, worstCase } from './fixtures/designs.js'

// Conformance suites live in subpaths (they load vitest): '@litho/testing/meter', '/design-store',
// '/account-store', '/file-store', '/auth-state-store' (runAuthStateStoreConformance), '/job-queue'
// (runJobStoreConformance, runJobQueueConformance).
