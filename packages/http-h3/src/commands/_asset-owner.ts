/**
 * The owner of the `litho assets` commands: `--email E` or `--owner ID` (the user's id), exactly
 * one of them. Internal to the asset commands.
 *
 * @module commands/_asset-owner
 */
import type { AccountStore, UserRecord } from '@litho/core/contracts'
import { findUser, readEmail } from './_admin.js'
import { CommandError } from './command-error.js'
import { UsageError } from './usage-error.js'

/** The `--email`/`--owner` flags as read, checked before any store is opened. */
export type OwnerFlag = { email: string } | { owner: string }

/**
 * Reads `--email` or `--owner` of `command`.
 *
 * @throws UsageError when both or neither are given, or the value is malformed.
 */
export function readOwnerFlag(values: { email?: string | undefined; owner?: string | undefined }, command: string): OwnerFlag {
  if ((values.email === undefined) === (values.owner === undefined)) throw new UsageError(`${command} needs exactly one of --email EMAIL or --owner ID`)
  if (values.email !== undefined) return { email: readEmail(values.email, command) }
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(values.owner!)) throw new UsageError(`${command}: --owner expects a user id of [A-Za-z0-9_-], 1 to 64 characters, received ${JSON.stringify(values.owner!.slice(0, 64))}`)
  return { owner: values.owner! }
}

/** The user the flag names. @throws CommandError `ERR_USER_NOT_FOUND`. */
export async function findOwner(accounts: Pick<AccountStore, 'findUserByEmail' | 'getUser'>, flag: OwnerFlag): Promise<UserRecord> {
  if ('email' in flag) return findUser(accounts, flag.email)
  const user = await accounts.getUser(flag.owner)
  if (user === null) throw new CommandError(`no user has the id ${flag.owner} (list them with: litho users list)`, 'ERR_USER_NOT_FOUND')
  return user
}
