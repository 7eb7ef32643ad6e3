/**
 * Password hashing for accounts: scrypt from node:crypto, parameters stored with each
 * hash so they can be raised later without locking anyone out.
 *
 * @module passwords
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/** scrypt cost parameters. */
export interface ScryptParams {
  /** CPU/memory cost, a power of 2. */
  N: number
  /** Block size. */
  r: number
  /** Parallelisation. */
  p: number
}

/**
 * OWASP's password storage cheat sheet: N = 2^17, r = 8, p = 1 (128 MiB and ~0.3 s per hash
 * on this project's machines). Sign-in is rare and rate-limited; this is the right trade.
 */
export const DEFAULT_SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 17, r: 8, p: 1 })

const KEY_BYTES = 32
const SALT_BYTES = 16
const MAX_PASSWORD_BYTES = 1024
const FORMAT = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9_-]{22})\$([A-Za-z0-9_-]{43})$/

function scrypt(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // maxmem must exceed 128·N·r bytes, or node refuses the parameters.
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r }
  return new Promise((resolve, reject) => scryptCallback(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))))
}

function checkPassword(password: unknown): asserts password is string {
  if (typeof password !== 'string' || password.length === 0) throw Object.assign(new TypeError('Expected a non-empty password string'), { code: 'ERR_INVALID_ARG_VALUE' })
  // Bounded so a huge input cannot make hashing a denial of service.
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) throw Object.assign(new TypeError(`Expected a password of at most ${MAX_PASSWORD_BYTES} bytes`), { code: 'ERR_INVALID_ARG_VALUE' })
}

/**
 * Hashes a password with a fresh 128-bit salt: `scrypt$N=…,r=…,p=…$<salt>$<key>`. Runs on
 * the libuv pool, never blocking the event loop. The password is never logged or kept.
 *
 * @example const stored = await hashPassword('correct horse battery staple')
 */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  checkPassword(password)
  const salt = randomBytes(SALT_BYTES)
  const key = await scrypt(password, salt, params)
  return `scrypt$N=${params.N},r=${params.r},p=${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`
}

/**
 * True when `password` matches `stored`, compared in constant time with the parameters in
 * `stored`. A malformed `stored` value or a wrong password is `false`, never an error
 * (a sign-in form answers the same either way).
 */
export async function verifyPassword(password: unknown, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(password, stored)
  if (!parsed) return false
  const actual = await scrypt(password as string, Buffer.from(parsed.salt, 'base64url'), parsed.params)
  return timingSafeEqual(actual, Buffer.from(parsed.expected, 'base64url'))
}

/**
 * The parts of a stored hash worth checking `password` against, or null when the check is
 * false without hashing (no or oversized password, malformed or absurd stored parameters).
 *
 * @example parseStoredHash('pw', 'scrypt$N=1024,r=8,p=1$<salt>$<key>') // { params: { N: 1024, r: 8, p: 1 }, salt, expected }
 */
export function parseStoredHash(password: unknown, stored: string): { params: ScryptParams; salt: string; expected: string } | null {
  const m = typeof stored === 'string' ? FORMAT.exec(stored) : null
  if (typeof password !== 'string' || password.length === 0 || Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES || !m) return null
  const params = { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) }
  // Refuse absurd stored parameters rather than let a tampered record pin the CPU.
  if (params.N > 2 ** 20 || params.r > 32 || params.p > 16) return null
  return { params, salt: m[4]!, expected: m[5]! }
}

/** True when `stored` uses weaker parameters than `params`: rehash after the next sign-in. */
export function needsRehash(stored: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): boolean {
  const m = FORMAT.exec(stored)
  if (!m) return true
  return Number(m[1]) < params.N || Number(m[2]) < params.r || Number(m[3]) < params.p
}
