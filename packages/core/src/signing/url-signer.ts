/**
 * Signed URLs for stored renders that the app serves itself (the fs and Redis file
 * stores; S3 presigns its own): HMAC-SHA256 over a canonical string, key ids for
 * rotation, server time only. docs/signed-urls.md describes the design.
 *
 * @module signing/url-signer
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { MAX_SIGNED_URL_SECONDS, canonicalPath, type UrlSigner, type UrlSignerOptions, type UrlSigningKey } from '../contracts/signing.js'

export { MAX_SIGNED_URL_SECONDS, canonicalPath, type SignRequest, type UrlSigner, type UrlSignerOptions, type UrlSigningKey, type VerifyFailure } from '../contracts/signing.js'

const KID = /^[A-Za-z0-9_-]{1,32}$/
const RESERVED = new Set(['exp', 'kid', 'sig'])

function invalid(message: string): TypeError & { code: string } {
  return Object.assign(new TypeError(message), { code: 'ERR_INVALID_ARG_VALUE' })
}

function secretBytes(key: UrlSigningKey, index: number): Buffer {
  if (typeof key?.id !== 'string' || !KID.test(key.id)) throw invalid(`Expected keys[${index}].id to match [A-Za-z0-9_-]{1,32}`)
  const bytes = typeof key.secret === 'string' ? Buffer.from(key.secret, 'utf8') : Buffer.from(key.secret ?? [])
  // An unset, short or placeholder-like secret would make every URL forgeable: refuse to
  // start rather than sign with it (docs/security.md#keys). Never echo the secret.
  if (bytes.length < 32) throw invalid(`Expected keys[${index}].secret to have at least 32 bytes but received ${bytes.length}`)
  if (new Set(bytes).size < 8) throw invalid(`Expected keys[${index}].secret to be random but it repeats a few characters`)
  return bytes
}

function canonicalString(path: string, extras: ReadonlyArray<readonly [string, string]>, exp: string, kid: string): string {
  const query = [...extras]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&')
  return ['v1', 'GET', path, query, exp, kid].join('\n')
}

/**
 * Creates a signer.
 *
 * @throws TypeError `ERR_INVALID_ARG_VALUE` when there are no keys, a key id is invalid or
 * duplicated, a secret is shorter than 32 bytes or not random, or the leeway is not 0–60.
 * @example
 * const signer = createUrlSigner({ keys: [{ id: 'k1', secret: process.env.LITHO_URL_SECRET! }] })
 * const query = signer.sign({ path: '/files/u_1/r_2.png', expiresAt, now: new Date() })
 * signer.verify({ path: '/files/u_1/r_2.png', query, now: new Date() }) // { ok: true, expiresAt }
 */
export function createUrlSigner(options: UrlSignerOptions): UrlSigner {
  if (!Array.isArray(options?.keys) || options.keys.length === 0) throw invalid('Expected keys to hold at least one signing key')
  const secrets = new Map<string, Buffer>()
  options.keys.forEach((key, index) => {
    const bytes = secretBytes(key, index)
    if (secrets.has(key.id)) throw invalid(`Expected unique key ids but "${key.id}" appears twice`)
    secrets.set(key.id, bytes)
  })
  const leeway = options.leewaySeconds ?? 0
  if (!Number.isInteger(leeway) || leeway < 0 || leeway > 60) throw invalid('Expected leewaySeconds to be a whole number from 0 to 60')
  const active = options.keys[0]!.id
  const mac = (kid: string, text: string): Buffer => createHmac('sha256', secrets.get(kid)!).update(text).digest()

  return {
    sign({ path, query = {}, expiresAt, now }) {
      const canonical = canonicalPath(path)
      if (canonical === null) throw invalid('Expected a canonical file path (no empty, "." or ".." segments, no encoded slashes)')
      const seconds = Math.ceil((expiresAt.getTime() - now.getTime()) / 1000)
      if (!Number.isFinite(seconds) || seconds < 1) throw invalid('Expected expiresAt to be after now')
      if (seconds > MAX_SIGNED_URL_SECONDS) throw invalid(`Expected a lifetime of at most ${MAX_SIGNED_URL_SECONDS} seconds (7 days) but received ${seconds}`)
      const extras = Object.entries(query)
      for (const [name] of extras) if (RESERVED.has(name)) throw invalid(`Expected query to leave "${name}" to the signer`)
      const exp = String(Math.floor(expiresAt.getTime() / 1000))
      const sig = mac(active, canonicalString(canonical, extras, exp, active)).toString('base64url')
      return new URLSearchParams([...extras, ['exp', exp], ['kid', active], ['sig', sig]])
    },

    verify({ path, query, now }) {
      const canonical = canonicalPath(path)
      const entries = [...query.entries()]
      const names = entries.map(([name]) => name)
      // Duplicated parameters make the signed meaning ambiguous: refuse them outright.
      if (canonical === null || new Set(names).size !== names.length) return { ok: false, reason: 'malformed' }
      const exp = query.get('exp')
      const kid = query.get('kid')
      const sig = query.get('sig')
      if (exp === null || kid === null || sig === null || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return { ok: false, reason: 'malformed' }
      if (!secrets.has(kid)) return { ok: false, reason: 'unknown_key' }
      const extras = entries.filter(([name]) => !RESERVED.has(name))
      const expected = mac(kid, canonicalString(canonical, extras, exp, kid))
      const given = Buffer.from(sig, 'base64url')
      // Both are 32-byte HMAC-SHA256 digests (the regex fixes the length): constant-time compare.
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' }
      // The signature is checked first, so an edited exp is a bad signature, not an expiry.
      const expiresAt = new Date(Number(exp) * 1000)
      if (now.getTime() > expiresAt.getTime() + leeway * 1000) return { ok: false, reason: 'expired' }
      return { ok: true, expiresAt }
    },
  }
}
