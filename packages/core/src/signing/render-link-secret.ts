/**
 * The server side of signed render links (docs/signed-render-links.md) that needs Node's
 * crypto: a key's link secret, derived with HKDF-SHA256 (RFC 5869) from a master key that is
 * not in any store and a random salt that is; the signature; and a synchronous signer.
 *
 * Why derive: the account store keeps only the salt, so a copy of the database alone cannot
 * sign a link. Rotating a key's link secret is replacing its salt; revoking the key removes it.
 *
 * @module signing/render-link-secret
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'
import { prepareRenderLink, type SignRenderUrlOptions } from './render-link.js'

/** The prefix of every link secret, so a leaked one is recognisable (and told from a render key, `lk_`). */
export const LINK_SECRET_PREFIX = 'lks_'

/** The longest `exp` a server accepts by default, from now: 365 days, in seconds. */
export const DEFAULT_RENDER_LINK_MAX_SECONDS = 31_536_000

/** The salt of a key's link secret as the store keeps it: 16 random bytes, base64url. */
export const LINK_SALT = /^[A-Za-z0-9_-]{22,86}$/

/** Fewest bytes of master key: 256 bits, the HMAC's own strength. */
const MIN_MASTER_KEY_BYTES = 32

/**
 * How a server signs and checks render links: the master key every link secret is derived
 * from (keep it out of the stores: an environment variable or a key file), and the longest
 * lifetime it accepts.
 *
 * @example const renderLinks: RenderLinkSettings = { masterKey: process.env.LITHO_RENDER_LINK_KEY!, maxSeconds: 30 * 86_400 }
 */
export interface RenderLinkSettings {
  /** At least 32 bytes of random secret (a string is taken as UTF-8). Changing it invalidates every link secret. */
  masterKey: string | Uint8Array
  /** Links whose `exp` is further than this from now are refused. @default 31536000 (365 days) */
  maxSeconds?: number
}

function invalid(message: string): TypeError & { code: string } {
  return Object.assign(new TypeError(message), { code: 'ERR_INVALID_ARG_VALUE' })
}

/**
 * Checks render-link settings: the master key long and random enough, `maxSeconds` a whole
 * number of seconds from 60 to 10 years. Never echoes the key.
 *
 * @throws TypeError `ERR_INVALID_ARG_VALUE` naming `masterKey` or `maxSeconds`.
 * @example const { masterKey, maxSeconds } = checkRenderLinkSettings({ masterKey: process.env.LITHO_RENDER_LINK_KEY! })
 */
export function checkRenderLinkSettings(settings: RenderLinkSettings): { masterKey: Buffer; maxSeconds: number } {
  const raw = settings?.masterKey
  const masterKey = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw instanceof Uint8Array ? Buffer.from(raw) : null
  if (masterKey === null) throw invalid('Expected masterKey to be a string or bytes')
  if (masterKey.length < MIN_MASTER_KEY_BYTES) throw invalid(`Expected masterKey to have at least ${MIN_MASTER_KEY_BYTES} bytes but received ${masterKey.length}`)
  if (new Set(masterKey).size < 8) throw invalid('Expected masterKey to be random but it repeats a few characters')
  const maxSeconds = settings.maxSeconds ?? DEFAULT_RENDER_LINK_MAX_SECONDS
  if (!Number.isSafeInteger(maxSeconds) || maxSeconds < 60 || maxSeconds > 10 * DEFAULT_RENDER_LINK_MAX_SECONDS) throw invalid(`Expected maxSeconds to be a whole number from 60 to ${10 * DEFAULT_RENDER_LINK_MAX_SECONDS} but received ${String(maxSeconds)}`)
  return { masterKey, maxSeconds }
}

/**
 * A new random salt for a key's link secret: 16 bytes, base64url (what `linkSalt` of a key record holds).
 *
 * @example const record = { ...key, linkSalt: createLinkSalt() }
 */
export function createLinkSalt(): string {
  return randomBytes(16).toString('base64url')
}

/**
 * A key's link secret: `lks_` and the base64url of 32 bytes of HKDF-SHA256 (node:crypto
 * `hkdfSync`) with the master key as input key material, the key's salt, and
 * `litho render link v1 <key id>` as info. The same inputs always give the same secret.
 *
 * @throws TypeError `ERR_INVALID_ARG_VALUE` for a bad master key or salt.
 * @example const secret = deriveRenderLinkSecret({ masterKey, salt: key.linkSalt!, keyId: key.id })
 */
export function deriveRenderLinkSecret(input: { masterKey: string | Uint8Array; salt: string; keyId: string }): string {
  const { masterKey } = checkRenderLinkSettings({ masterKey: input.masterKey })
  if (typeof input.salt !== 'string' || !LINK_SALT.test(input.salt)) throw invalid('Expected salt to be base64url, 22-86 characters')
  const bytes = hkdfSync('sha256', masterKey, Buffer.from(input.salt, 'base64url'), `litho render link v1 ${input.keyId}`, 32)
  return `${LINK_SECRET_PREFIX}${Buffer.from(bytes).toString('base64url')}`
}

/**
 * The HMAC-SHA256 of a string to sign with a link secret (its UTF-8 bytes are the HMAC key).
 *
 * @example renderLinkSignature(secret, renderLinkStringToSign('og-card', params)).toString('base64url')
 */
export function renderLinkSignature(secret: string, stringToSign: string): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(stringToSign, 'utf8').digest()
}

/**
 * Whether `sig` (43 base64url characters) is the signature of `stringToSign`, compared in
 * constant time.
 *
 * @example isRenderLinkSignature(secret, stringToSign, query.get('sig')!)
 */
export function isRenderLinkSignature(secret: string, stringToSign: string, sig: string): boolean {
  // The text is compared, not the decoded bytes: the last of 43 base64url characters carries 2
  // bits a decoder ignores, and four spellings of one signature would be four cache keys.
  const given = Buffer.from(sig, 'utf8')
  const expected = Buffer.from(renderLinkSignature(secret, stringToSign).toString('base64url'), 'utf8')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * `signRenderUrl` of `@litho/core/signing`, synchronous, with Node's crypto: the same URL.
 *
 * @throws TypeError `ERR_INVALID_ARG_VALUE` as `signRenderUrl`.
 * @example const src = signRenderUrlSync({ url: 'https://render.example.com/v1/og-card?title.text=Hi', keyId, secret, expiresAt: 1798761600 })
 */
export function signRenderUrlSync(options: SignRenderUrlOptions): string {
  const { stringToSign, toUrl } = prepareRenderLink(options)
  return toUrl(renderLinkSignature(options.secret, stringToSign).toString('base64url'))
}
