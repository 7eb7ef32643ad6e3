/**
 * The account store in files: the one unstorage implementation (`../unstorage/account-store.ts`) over the fs driver.
 *
 * @module fs/account-store
 */
import type { AccountStore } from '@litho/core/contracts'
import { fsStore } from '../kit/store-base.js'
import { kit, unstorageAccountStore } from '../unstorage/account-store.js'

/** Options of {@link fsAccountStore}. */
export interface FsAccountStoreOptions {
  /** The directory holding the accounts (**required**); created on first write. */
  base: string
}

/**
 * An account store in files under `options.base`: accounts survive restarts. Every file is
 * written to a temporary file and renamed into place (the atomic fs driver), so a crash
 * mid-write leaves the previous version, never a truncated one. Keep one directory for
 * accounts only.
 *
 * @throws {TypeError} `ERR_MISSING_OPTION` or `ERR_INVALID_ARG_TYPE` when `base` is missing or not a string.
 * @example
 * const accounts = fsAccountStore({ base: '.data/accounts' })
 */
export function fsAccountStore(options: FsAccountStoreOptions): AccountStore {
  return fsStore(kit, unstorageAccountStore, options)
}
