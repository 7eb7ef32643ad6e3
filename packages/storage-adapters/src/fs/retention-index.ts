/**
 * The retention index in files: the one unstorage implementation (`../unstorage/retention-index.ts`) over the fs driver.
 *
 * @module fs/retention-index
 */
import type { RetentionIndex } from '@litho/core/contracts'
import { fsStore } from '../kit/store-base.js'
import { kit, unstorageRetentionIndex } from '../unstorage/retention-index.js'

/** Options of {@link fsRetentionIndex}. */
export interface FsRetentionIndexOptions {
  /** The directory holding the records (**required**); created on first write. */
  base: string
}

/**
 * A retention index in files under `options.base` (one small file per stored render), written
 * atomically (temporary file and rename). One process per directory.
 *
 * @throws {TypeError} `ERR_MISSING_OPTION` or `ERR_INVALID_ARG_TYPE` when `base` is missing or not a string.
 * @example
 * const retention = fsRetentionIndex({ base: '.data/retention' })
 */
export function fsRetentionIndex(options: FsRetentionIndexOptions): RetentionIndex {
  return fsStore(kit, unstorageRetentionIndex, options)
}
