/**
 * The file-store conformance suite: proves that a `FileStore` (`@litho/core/contracts`) keeps
 * the contract written in its doc comment.
 *
 * @module file-store/run-file-store-conformance
 */
import type { FileStore } from '@litho/core/contracts'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { createFileStoreCaseContext, createRunPrefix, fileStoreCases, type FetchUrl, type FileStoreCaseContext } from './file-store-cases.js'

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
  const skip = options.skip ?? {}
  const titles = new Set(fileStoreCases.map((c) => c.title))
  for (const [title, reason] of Object.entries(skip)) {
    if (!titles.has(title)) throw codedTypeError(`Expected skip to name a case of the file store suite but received ${JSON.stringify(title)}`)
    if (typeof reason !== 'string' || reason.trim() === '') throw codedTypeError(`Expected a reason to skip ${JSON.stringify(title)} but received none`)
  }

  describe(`file store › ${options.name}`, () => {
    let context: FileStoreCaseContext | undefined
    const prefix = createRunPrefix()

    beforeAll(async () => {
      context = createFileStoreCaseContext(await options.create(), options.create, options.fetchUrl, prefix)
    })
    afterAll(async () => {
      await context?.store.dispose?.()
    })

    for (const storeCase of fileStoreCases) {
      it(storeCase.title, async (test) => {
        const reason = skip[storeCase.title]
        if (reason !== undefined) test.skip(reason)
        if (!context) throw new Error('The store was not created (see the error of beforeAll)')
        if (storeCase.needsPersistent && !context.store.capabilities.persistent) test.skip(`${context.store.name} is not persistent (capabilities.persistent)`)
        if (storeCase.needsFetch && options.fetchUrl === undefined) test.skip('no fetchUrl given to runFileStoreConformance')
        await storeCase.run(context)
      })
    }
  })
}

function codedTypeError(message: string): TypeError & { code: 'ERR_INVALID_ARG_VALUE' } {
  return Object.assign(new TypeError(`[testing:file-store] ${message}`), { code: 'ERR_INVALID_ARG_VALUE' as const })
}
