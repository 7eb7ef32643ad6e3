/**
 * The pure pieces of signed file URLs that stores need without the signer itself: the longest
 * lifetime, the canonical path, and the signer's interface. `createUrlSigner` (HMAC, in
 * `@litho/core`) implements it; docs/signed-urls.md describes the scheme.
 *
 * Also its own entry, `@litho/core/signing`, which loads nothing at all: the file stores import it.
 *
 * @module contracts/signing
 */

/** The longest a signed URL may live: 7 days, as S3 and GCS (docs/signed-urls.md: `expiresIn` ≤ 10080 minutes). */
export const MAX_SIGNED_URL_SECONDS = 604_800

/** A signing key. The first key of a signer signs; every key verifies (rotation). */
export interface UrlSigningKey {
  /** Key id, carried in the URL as `kid`: `[A-Za-z0-9_-]{1,32}`. */
  id: string
  /** At least 32 bytes of secret (a string is taken as UTF-8). */
  secret: string | Uint8Array
}

/** Options of `createUrlSigner` (`@litho/core`). */
export interface UrlSignerOptions {
  /** Keys, active first. Retire a key by removing it: every URL it signed stops working. */
  keys: readonly UrlSigningKey[]
  /** Seconds a URL stays valid after `exp`, for clock drift between instances (0–60). @default 0 */
  leewaySeconds?: number
}

/** What to sign. */
export interface SignRequest {
  /** The canonical path of the file, e.g. `/files/u_1/r_2.png` (see {@link canonicalPath}). */
  path: string
  /** Extra query parameters that must not change (not `exp`, `kid` or `sig`). */
  query?: Record<string, string>
  expiresAt: Date
  now: Date
}

/** Why a URL was refused. */
export type VerifyFailure = 'malformed' | 'unknown_key' | 'bad_signature' | 'expired'

/** Signs and verifies URLs. */
export interface UrlSigner {
  /** The query string (`exp`, `kid`, `sig` and the extras) that makes `path` valid until `expiresAt`. */
  sign(request: SignRequest): URLSearchParams
  /** Checks a request against its signature and expiry, with the server's `now`. */
  verify(request: { path: string; query: URLSearchParams; now: Date }): { ok: true; expiresAt: Date } | { ok: false; reason: VerifyFailure }
}

/**
 * The canonical form of a file path, or null when it is not one: `/` then segments of
 * unreserved URL characters (`A-Z a-z 0-9 . _ ~ -`), none empty, `.` or `..`. No percent
 * escapes at all, so there is exactly one spelling of each path: signing and lookup both
 * use it, and a URL can never be edited into a path that resolves to another file
 * (`%2e%2e`, `%2F`, double encoding and backslashes are all refused).
 */
export function canonicalPath(path: string): string | null {
  if (typeof path !== 'string' || !path.startsWith('/') || path.length > 1024) return null
  for (const segment of path.slice(1).split('/')) {
    if (!/^[A-Za-z0-9._~-]+$/.test(segment) || segment === '.' || segment === '..') return null
  }
  return path
}

