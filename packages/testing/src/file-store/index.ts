/**
 * @litho/testing/file-store: the conformance suite for file stores. Its own entry because it
 * registers vitest tests.
 *
 * @module @litho/testing/file-store
 */
export { runFileStoreConformance, type FileStoreConformanceOptions } from './run-file-store-conformance.js'
export { everyByte, fileStoreCases, type FetchUrl, type FileStoreCase, type FileStoreCaseContext } from './file-store-cases.js'
