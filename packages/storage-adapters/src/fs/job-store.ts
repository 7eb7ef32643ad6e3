/**
 * The job store in files: the one unstorage implementation (`../unstorage/job-store.ts`) over the fs driver.
 *
 * @module fs/job-store
 */
import type { JobStore } from '@litho/core/contracts'
import { fsStore } from '../kit/store-base.js'
import { kit, unstorageJobStore } from '../unstorage/job-store.js'

/** Options of {@link fsJobStore}. */
export interface FsJobStoreOptions {
  /** The directory holding the jobs (**required**); created on first write. */
  base: string
}

/**
 * A job store in files under `options.base` (one file per job, `<base>/litho/jobs/<id>`): jobs
 * survive restarts. Every file is written to `<base>/.litho-tmp/` and renamed into place (the
 * atomic fs driver), so a crash mid-write leaves the previous version, never a truncated one.
 * One process per directory.
 *
 * @throws {TypeError} `ERR_MISSING_OPTION` or `ERR_INVALID_ARG_TYPE` when `base` is missing or not a string.
 * @example
 * const jobs = fsJobStore({ base: '.data/jobs' })
 */
export function fsJobStore(options: FsJobStoreOptions): JobStore {
  return fsStore(kit, unstorageJobStore, options)
}
