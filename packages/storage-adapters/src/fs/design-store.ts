/**
 * The design store in files: the one unstorage implementation (`../unstorage/design-store.ts`) over the fs driver.
 *
 * @module fs/design-store
 */
import type { DesignStore } from '@litho/core/contracts'
import { fsStore } from '../kit/store-base.js'
import { kit, unstorageDesignStore } from '../unstorage/design-store.js'

/** Options of {@link fsDesignStore}. */
export interface FsDesignStoreOptions {
  /** The directory holding the designs (**required**); created on first write. */
  base: string
}

/**
 * A design store in files under `options.base` (the unstorage fs driver): designs survive
 * restarts. Every file is written to a temporary file in `<base>/.litho-tmp/` and renamed into
 * place (the atomic fs driver), so a crash mid-write leaves the previous version, never a
 * truncated one; a file damaged otherwise (edited by hand) rejects with `ERR_STORAGE` rather
 * than being returned. Lists read the names of every file under `base` (the fs driver lists keys
 * recursively from its root), so keep one directory for designs only.
 *
 * @throws {TypeError} `ERR_MISSING_OPTION` or `ERR_INVALID_ARG_TYPE` when `base` is missing or not a string.
 * @example
 * const designs = fsDesignStore({ base: '.data/designs' })
 */
export function fsDesignStore(options: FsDesignStoreOptions): DesignStore {
  return fsStore(kit, unstorageDesignStore, options)
}
