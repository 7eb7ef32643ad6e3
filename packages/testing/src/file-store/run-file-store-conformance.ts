/**
 * The file-store conformance suite: proves that a `FileStore` (`@litho/core/contracts`) keeps
 * the contract written in its doc comment.
 *
 * @module file-store/run-file-store-conformance
 */
import type { FileStore } from '@litho/core/contracts'
import { registerSuite } from '../_suite.js'
import { createFileStoreCaseContext, fileStoreCases, type FetchUrl } from './file-store-cases.js'

/** Options of {@link runFileStoreConformance}. */
export interface FileStoreConformanceOptions {
  /** Used in the describe title: `file store › <name>`. */
  name: string
  /** A store; calling it again must give a store over the SAME storage (for the persistence case). */
  create: () => FileStore | Promise<FileStore>
  /**
   * Fetches a URL as a client would: `{ status, bytes }`. For S3, a real HTTP fetch; for an
   * app-served store, route the URL to the app's check (`verifyFileRequest`) and `get`. Without
   * it the cases that fetch signed URLs are skipped.
   */
  fetchUrl?: FetchUrl
  /** Cases to skip, by exact title, each with a reason. */
  skip?: Record<string, string>
}

/**
 * Registers the file-store suite with vitest (call it at the top level of a test file). One store
 * is created before the cases and disposed after them; the persistence case (run only when
 * `store.capabilities.persistent`) calls `create()` for more. Keys start with a prefix unique to
 * the run; the suite deletes only what the persistence case wrote, so give each run its own
 * storage prefix and clean it afterwards.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_VALUE` when `skip` names a case that does not exist or gives no reason.
 * @example
 * import { runFileStoreConformance } from '@litho/testing/file-store'
 * import { memoryFileStore } from '@litho/storage-adapters/file-store'
 *
 * runFileStoreConformance({ name: 'memory', create: () => memoryFileStore({ publicBaseUrl: 'http://localhost/files', signer }) })
 */
export function runFileStoreConformance(options: FileStoreConformanceOptions): void {
  registerSuite({
    suite: 'file store',
    subject: 'store',
    name: options.name,
    cases: fileStoreCases,
    skip: options.skip,
    open: async () => createFileStoreCaseContext(await options.create(), options.create, options.fetchUrl),
    close: ({ store }) => store.dispose?.(),
    unmet: (storeCase, { store }) => {
      if (storeCase.needsPersistent && !store.capabilities.persistent) return `${store.name} is not persistent (capabilities.persistent)`
      if (storeCase.needsFetch && options.fetchUrl === undefined) return 'no fetchUrl given to runFileStoreConformance'
      return undefined
    },
  })
}
