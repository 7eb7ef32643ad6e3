/**
 * What the admin commands (`users create`, `keys create`, `designs import`) share: their io,
 * the `--data` option, the backends' lifetime, email parsing and the one-line JSON answer.
 *
 * @module commands/_admin
 */
import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import type { AccountStore, UserRecord } from '@litho/core/contracts'
import { createBackends, type BackendsOptions, type LithoBackends } from '../backends.js'
import { CommandError } from './command-error.js'
import { UsageError } from './usage-error.js'

/** What an admin command needs from its surroundings (so tests can run it without a process). */
export interface AdminCommandIo {
  writeStdout(text: string): Promise<void> | void
  writeStderr(text: string): void
  /** Where `LITHO_DATA_DIR` and the backend variables are read from. @default process.env */
  env?: Record<string, string | undefined>
  /** Makes the stores; tests may pass stubs. @default createBackends */
  createBackends?: (options: BackendsOptions) => Promise<LithoBackends>
  /** The clock. @default () => new Date() */
  now?: () => Date
}

/** The default data directory, relative to the working directory (docs/cli.md). */
const DEFAULT_DATA_DIR = './.litho'

/**
 * Admin commands never make file URLs (only `serve` does), but the file stores need a base:
 * this one is never shown to anyone.
 */
const ADMIN_FILES_BASE_URL = 'http://127.0.0.1/files'

/** RFC 5321's limit on a path, and the account store's. */
const MAX_EMAIL_LENGTH = 320
/** A simple `x@y.z` shape: enough to catch a swapped flag or a typo, not a full RFC 5322 parser. */
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/

/**
 * The data directory: `--data`, else `LITHO_DATA_DIR`, else `./.litho`, made absolute.
 *
 * @example resolveDataDir(undefined, { env: { LITHO_DATA_DIR: '/srv/litho' } }) // '/srv/litho'
 */
export function resolveDataDir(dataFlag: string | undefined, io: Pick<AdminCommandIo, 'env'>): string {
  const env = io.env ?? process.env
  if (dataFlag === '') throw new UsageError('--data: expected a directory, received ""')
  return resolve(dataFlag ?? (env.LITHO_DATA_DIR || DEFAULT_DATA_DIR))
}

/** Opens the backends for `--data` (else `LITHO_DATA_DIR`, else `./.litho`), runs `task`, and always disposes them. */
export async function withBackends<T>(dataFlag: string | undefined, io: AdminCommandIo, task: (backends: LithoBackends) => Promise<T>): Promise<T> {
  const env = io.env ?? process.env
  const dataDir = resolveDataDir(dataFlag, io)
  const backends = await (io.createBackends ?? createBackends)({ dataDir, filesBaseUrl: ADMIN_FILES_BASE_URL, env })
  try {
    return await task(backends)
  } finally {
    await backends.dispose()
  }
}

/** The `--email` flag, trimmed and lower-cased (how accounts store it). */
export function readEmail(value: string | undefined, command: string): string {
  if (value === undefined) throw new UsageError(`${command} needs --email`)
  const email = value.trim().toLowerCase()
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL_RE.test(email)) {
    throw new UsageError(`--email: expected an address like name@example.com, received ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}`)
  }
  return email
}

/** Writes the command's answer: exactly one JSON object and a newline. */
export async function printJson(io: AdminCommandIo, value: Record<string, unknown>): Promise<void> {
  await io.writeStdout(`${JSON.stringify(value)}\n`)
}

/** A random id: `prefix` then `bytes` random bytes in base64url (16 bytes: 128 bits). */
export function randomId(prefix: string, bytes: number): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`
}

/** The user with `email`, or a CommandError (code `ERR_USER_NOT_FOUND`) saying how to create one. */
export async function findUser(accounts: Pick<AccountStore, 'findUserByEmail'>, email: string): Promise<UserRecord> {
  const user = await accounts.findUserByEmail(email)
  if (user === null) throw new CommandError(`no user with email ${email} (create one with: litho users create --email ${email})`, 'ERR_USER_NOT_FOUND')
  return user
}

/**
 * A whole-number flag (`--limit`, `--page`) from `min` to `max`, or `fallback` when absent.
 *
 * @example readWholeNumber('--limit', '20', { min: 1, max: 100, fallback: 100 }) // 20
 */
export function readWholeNumber(flag: string, value: string | undefined, range: { min: number; max: number; fallback: number }): number {
  if (value === undefined) return range.fallback
  const n = Number(value)
  if (value.trim() === '' || !Number.isSafeInteger(n) || n < range.min || n > range.max) {
    throw new UsageError(`${flag}: expected a whole number from ${range.min} to ${range.max}, received ${JSON.stringify(value.slice(0, 40))}`)
  }
  return n
}

/** The clock of a command: `io.now`, else the system's. */
export function clockOf(io: AdminCommandIo): { now: () => Date } {
  return { now: () => io.now?.() ?? new Date() }
}
