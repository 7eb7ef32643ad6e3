/**
 * The keys that sign the URLs of files the app serves itself (fs and Redis file stores), and
 * their rotation. A signature carries its key's id (`kid`): the newest key signs, older ones
 * only verify, so URLs given out before a rotation keep working until they expire (7 days at
 * most, {@link MAX_SIGNED_URL_SECONDS}). Two sources:
 *
 * - **The key file** `<dataDir>/secrets/url-signing-key` (one instance): created on first use;
 *   `litho signing-keys rotate urls` adds a key in front ({@link rotateUrlSigningKeyFile}).
 *   One key per line, newest first: `<kid> <created ISO time> <secret>`. A file of one bare
 *   secret (written before rotation existed) is the key `k1`.
 * - **The environment** (several instances must share keys): `LITHO_URL_SIGNING_KEY` signs
 *   (id `LITHO_URL_SIGNING_KEY_ID`, default `env`), `LITHO_URL_VERIFY_KEYS` lists older (or
 *   not yet active) keys as `<kid>:<secret>,…` that only verify.
 *
 * @module url-signing-keys
 */
import { randomBytes } from 'node:crypto'
import { open, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { createUrlSigner, MAX_SIGNED_URL_SECONDS, type UrlSigningKey } from '@litho/core'
import { ConfigError } from './config-error.js'
import { readOrCreateSecretFile } from './secret-file.js'

/** Where the generated URL-signing keys live, relative to the data directory. */
export const SIGNING_KEY_FILE = join('secrets', 'url-signing-key')

/** The signer's floor (createUrlSigner refuses less): 256 bits of HMAC key. */
const MIN_SIGNING_KEY_BYTES = 32
/** The signer's key ids. */
const KID = /^[A-Za-z0-9_-]{1,32}$/
/**
 * An old key is removed once its successor has signed for longer than any URL lives, plus a
 * day: a process not restarted right after the rotation kept signing with it a little longer.
 */
const RETIRE_AFTER_MS = (MAX_SIGNED_URL_SECONDS + 86_400) * 1000
const FILE_HEADER = '# Litho URL-signing keys, newest first: <kid> <created> <secret>. The first signs; the others only verify.\n'

/** One key as the file keeps it. */
interface FileKey {
  id: string
  /** When it was added (it signs from the next start of `litho serve`); unknown for a legacy file. */
  createdAt?: string
  secret: string
}

/** The keys of one process: the first signs, all verify; and where they came from. */
export interface LoadedUrlSigningKeys {
  keys: UrlSigningKey[]
  /** For the startup log, e.g. `file (/srv/.litho/secrets/url-signing-key), kid k20261125T075513 signs, k1 only verify`. */
  source: string
}

/**
 * The URL-signing keys from the environment, else from the data directory's key file (created
 * on first use, exclusively, so two processes starting at once share one key).
 *
 * @throws {ConfigError} naming the variable or the file when a key is missing, short or malformed.
 * @example const { keys } = await loadUrlSigningKeys((name) => process.env[name], '/srv/.litho')
 */
export async function loadUrlSigningKeys(read: (name: string) => string | undefined, dataDir: string): Promise<LoadedUrlSigningKeys> {
  const fromEnv = read('LITHO_URL_SIGNING_KEY')
  if (fromEnv !== undefined) return keysFromEnv(fromEnv, read)
  for (const name of ['LITHO_URL_SIGNING_KEY_ID', 'LITHO_URL_VERIFY_KEYS']) {
    if (read(name) !== undefined) throw new ConfigError(`${name}: only used with LITHO_URL_SIGNING_KEY, which is not set`)
  }
  const file = join(dataDir, SIGNING_KEY_FILE)
  const keys = await readOrCreateKeyFile(file, dataDir)
  return { keys: keys.map(({ id, secret }) => ({ id, secret })), source: `file (${file})${rotationNote(keys)}` }
}

/** What {@link rotateUrlSigningKeyFile} did. */
export interface RotatedUrlSigningKeys {
  /** The file. */
  file: string
  /** The new key's id: it signs from the next start of `litho serve`. */
  kid: string
  /** Older keys that still verify. */
  verifying: string[]
  /** Keys removed: their successor has signed for longer than any URL lives. */
  removed: string[]
}

/**
 * Puts a new random key in front of the key file (creating the file if needed) and removes
 * keys whose every URL has expired. The file is replaced atomically (mode 0600). A running
 * `litho serve` keeps its keys until restarted: URLs it signs meanwhile use the old key, which
 * still verifies.
 *
 * @throws {ConfigError} when the existing file cannot be read or is malformed (it is left as it is).
 * @example const { kid, verifying } = await rotateUrlSigningKeyFile('/srv/.litho', new Date())
 */
export async function rotateUrlSigningKeyFile(dataDir: string, now: Date): Promise<RotatedUrlSigningKeys> {
  const file = join(dataDir, SIGNING_KEY_FILE)
  const current = await readOrCreateKeyFile(file, dataDir)
  const id = newKeyId(now, new Set(current.map((key) => key.id)))
  const fresh: FileKey = { id, createdAt: now.toISOString(), secret: randomBytes(32).toString('base64url') }
  const kept: FileKey[] = [fresh]
  const removed: string[] = []
  current.forEach((key, index) => {
    // Key i stopped signing when key i-1 was added; fresh is key 0's successor.
    const successor = index === 0 ? fresh : current[index - 1]!
    const retired = successor.createdAt !== undefined && now.getTime() - Date.parse(successor.createdAt) > RETIRE_AFTER_MS
    if (retired) removed.push(key.id)
    else kept.push(key)
  })
  // Write next to the file, then rename over it: a reader sees the old keys or the new ones, whole.
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  const handle = await open(temporary, 'wx', 0o600)
  try {
    await handle.writeFile(formatKeyFile(kept), 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
  await rename(temporary, file)
  return { file, kid: id, verifying: kept.slice(1).map((key) => key.id), removed }
}

/**
 * A new key for operators who keep keys in the environment: a fresh id and 32 random bytes,
 * to add to `LITHO_URL_VERIFY_KEYS` first and promote to `LITHO_URL_SIGNING_KEY` later.
 *
 * @example const { id, secret } = generateUrlSigningKey(new Date())
 */
export function generateUrlSigningKey(now: Date): { id: string; secret: string } {
  return { id: newKeyId(now, new Set(['env'])), secret: randomBytes(32).toString('base64url') }
}

/** `k` and the UTC time to the second (`k20261125T075513`), unique among `taken`. */
function newKeyId(now: Date, taken: ReadonlySet<string>): string {
  const base = `k${now.toISOString().slice(0, 19).replace(/[-:]/g, '')}`
  let id = base
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`
  return id
}

function keysFromEnv(secret: string, read: (name: string) => string | undefined): LoadedUrlSigningKeys {
  const id = read('LITHO_URL_SIGNING_KEY_ID') ?? 'env'
  if (!KID.test(id)) throw new ConfigError(`LITHO_URL_SIGNING_KEY_ID: expected 1-32 letters, digits, "_" or "-", received ${JSON.stringify(id.slice(0, 40))}`)
  const keys: UrlSigningKey[] = [checked({ id, secret }, 'LITHO_URL_SIGNING_KEY')]
  const verifyOnly = read('LITHO_URL_VERIFY_KEYS')
  if (verifyOnly !== undefined) {
    verifyOnly.split(',').forEach((entry, index) => {
      const where = `LITHO_URL_VERIFY_KEYS[${index}]`
      const colon = entry.indexOf(':')
      const kid = entry.slice(0, Math.max(colon, 0)).trim()
      // Never echo an entry: it holds a secret.
      if (colon === -1 || !KID.test(kid)) throw new ConfigError(`${where}: expected <kid>:<secret> with a kid of 1-32 letters, digits, "_" or "-"`)
      if (keys.some((key) => key.id === kid)) throw new ConfigError(`${where}: the kid ${kid} is already used by another key`)
      keys.push(checked({ id: kid, secret: entry.slice(colon + 1).trim() }, where))
    })
  }
  return { keys, source: `LITHO_URL_SIGNING_KEY${rotationNote(keys)}` }
}

/** After a rotation, which key signs and which only verify, e.g. `, kid k2 signs, k1 verifies`. */
function rotationNote(keys: ReadonlyArray<{ id: string }>): string {
  return keys.length > 1 ? `, kid ${keys[0]!.id} signs, ${keys.slice(1).map((key) => key.id).join(', ')} only verify` : ''
}

/** The key, after the signer's own checks (length, randomness), with `where` in the message. */
function checked(key: UrlSigningKey, where: string): UrlSigningKey {
  const bytes = Buffer.byteLength(key.secret as string, 'utf8')
  if (bytes < MIN_SIGNING_KEY_BYTES) {
    throw new ConfigError(`${where}: expected at least ${MIN_SIGNING_KEY_BYTES} bytes of random secret but received ${bytes}; generate one with: node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`)
  }
  try {
    createUrlSigner({ keys: [key] })
  } catch (error) {
    // The signer's message never contains the secret.
    throw new ConfigError(`${where}: ${(error as Error).message.replace(/^Expected keys\[0\]\.secret/, 'expected the key')}`)
  }
  return key
}

/** The file's keys; creates the file with one key (`k1`) when there is none. */
async function readOrCreateKeyFile(file: string, dataDir: string): Promise<FileKey[]> {
  const text = await readOrCreateSecretFile(file, dataDir, { what: 'the URL-signing key', emptyHint: 'signed URLs already given out stop working' })
  return parseKeyFile(text, file)
}

/** Parses the key file (see the module comment); never echoes a line, which holds a secret. */
function parseKeyFile(text: string, file: string): FileKey[] {
  const lines = text.split('\n').map((line) => line.trim())
  const entries = lines.map((line, index) => ({ line, number: index + 1 })).filter(({ line }) => line !== '' && !line.startsWith('#'))
  const legacy = entries.length === 1 && !/\s/.test(entries[0]!.line)
  if (legacy) {
    const secret = entries[0]!.line
    if (Buffer.byteLength(secret, 'utf8') < MIN_SIGNING_KEY_BYTES) {
      throw new ConfigError(`${file}: expected a URL-signing key of at least ${MIN_SIGNING_KEY_BYTES} bytes but the file holds ${Buffer.byteLength(secret, 'utf8')}; delete it to have a new one generated (signed URLs already given out stop working)`)
    }
    return [checkedFileKey({ id: 'k1', secret }, `${file}`)]
  }
  const keys: FileKey[] = []
  for (const { line, number } of entries) {
    const where = `${file} line ${number}`
    const parts = line.split(/\s+/)
    const [id = '', createdAt = '', secret = ''] = parts
    if (parts.length !== 3 || !KID.test(id)) throw new ConfigError(`${where}: expected <kid> <created ISO time or -> <secret>`)
    if (createdAt !== '-' && Number.isNaN(Date.parse(createdAt))) throw new ConfigError(`${where}: expected the creation time as an ISO time or -`)
    if (keys.some((key) => key.id === id)) throw new ConfigError(`${where}: the kid ${id} appears twice`)
    keys.push(checkedFileKey({ id, secret, ...(createdAt === '-' ? {} : { createdAt }) }, where))
  }
  if (keys.length === 0) throw new ConfigError(`${file}: expected at least one key`)
  return keys
}

function checkedFileKey(key: FileKey, where: string): FileKey {
  checked({ id: key.id, secret: key.secret }, where)
  return key
}

function formatKeyFile(keys: readonly FileKey[]): string {
  return FILE_HEADER + keys.map((key) => `${key.id} ${key.createdAt ?? '-'} ${key.secret}\n`).join('')
}
