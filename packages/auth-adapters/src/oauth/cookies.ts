/**
 * The two cookies of the sign-in pages, read and written with cookie-es: `litho_session` (who
 * is signed in) and `litho_csrf` (the double-submit token of the forms).
 *
 * @module oauth/cookies
 */
import { parse, serialize } from 'cookie-es'

/** The session cookie: a random token whose SHA-256 names the session record. */
export const SESSION_COOKIE = 'litho_session'
/** The CSRF cookie: the same random token as the hidden field of the forms. */
export const CSRF_COOKIE = 'litho_csrf'

// Values are taken as sent: every value this server sets is base64url, so a percent-escape is
// never one of ours and must not be decoded into one that looks valid.
const AS_SENT = (value: string) => value

/** One cookie of the request (the first of that name), or undefined. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie')
  if (!header) return undefined
  return parse(header, { decode: AS_SENT, filter: (key) => key === name })[name]
}

/** Where and how the cookies are set: below the server's OAuth paths, Secure on https. */
export interface CookieScope {
  /** `<path of {auth_url}>/api/v1/auth/oauth2`: the endpoints that read the cookies, and no other path. */
  path: string
  /** Sent over https only. */
  secure: boolean
}

/**
 * A `Set-Cookie` value: HttpOnly, SameSite=Lax, scoped to the OAuth paths; Secure on https.
 *
 * cookie-es checks the name and value against RFC 6265's grammar; the attributes are written
 * in the order this server has always sent (`Path`, `Max-Age`, `HttpOnly`, `SameSite`,
 * `Secure`), which docs/connecting-a-client.md shows and clients' tests may match byte for byte.
 */
export function setCookie(name: string, value: string, maxAgeSeconds: number, scope: CookieScope): string {
  if (!Number.isInteger(maxAgeSeconds) || maxAgeSeconds < 0) throw Object.assign(new TypeError(`Expected a cookie lifetime in whole seconds but received ${maxAgeSeconds}`), { code: 'ERR_INVALID_ARG_VALUE' })
  return `${serialize(name, value, { encode: AS_SENT })}; Path=${scope.path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${scope.secure ? '; Secure' : ''}`
}
