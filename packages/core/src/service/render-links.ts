/**
 * Signed render links on the server (docs/signed-render-links.md): checking a link of a GET
 * render, and rotating a key's link secret. Transport-free: failures are LithoErrors
 * (`ERR_INVALID_REQUEST` naming the field for a malformed link, `ERR_BAD_SIGNATURE` with
 * `details.reason` for one that is refused), which the HTTP adapter maps to 400 and 403.
 *
 * The check is ordered so a request without a valid signature costs little and writes
 * nothing: the link's shape (no I/O), its `exp` against the clock (no I/O), then one read of
 * the key by id and one of its owner, then the HMAC. Only a link that checks out is metered
 * and rendered, and only then is the key's `lastUsedAt` touched.
 *
 * @module service/render-links
 */
import type { AccountStore, KeyRecord } from '../contracts/account-store.js'
import type { Clock } from '../contracts/clock.js'
import type { PlanId } from '../contracts/plans.js'
import { LithoError } from '../errors.js'
import { invalidRequest } from '../_internal/messages.js'
import { RENDER_KEY_QUERY_NAMES, RENDER_LINK_EXP, RENDER_LINK_KID, RENDER_LINK_PARAMS, RENDER_LINK_SIG, renderLinkStringToSign } from '../signing/render-link.js'
import { checkRenderLinkSettings, createLinkSalt, deriveRenderLinkSecret, isRenderLinkSignature, type RenderLinkSettings } from '../signing/render-link-secret.js'
import { STORE_ID, type BearerAccount } from './bearer-services.js'
import { clockOf } from './services.js'

/** Every reason a well-formed link is refused, in the order they are checked (docs/signed-render-links.md). */
export const RENDER_LINK_REFUSALS = ['links_disabled', 'expired', 'exp_too_far', 'unknown_key', 'key_inactive', 'no_link_secret', 'bad_signature'] as const

/** Why a well-formed link was refused (`details.reason` of its `ERR_BAD_SIGNATURE`), e.g. `'expired'`. */
export type RenderLinkRefusal = (typeof RENDER_LINK_REFUSALS)[number]

/** What checking a link needs: the keys and their owners, the master key, a clock. */
export interface RenderLinkServices {
  accounts: Pick<AccountStore, 'getKey' | 'getUser'> & Partial<Pick<AccountStore, 'markKeyUsed'>>
  /** Without it every link is refused (`links_disabled`). */
  renderLinks?: RenderLinkSettings
  clock?: Clock
}

/** A link that checked out: whose render it is, and until when it is valid. */
export interface VerifiedRenderLink {
  /** The key's owner, metered for the render. */
  account: { id: string; plan: PlanId }
  key: KeyRecord
  /** From `exp`; null when the link has none. */
  expiresAt: Date | null
  /** The query without `exp`, `kid` and `sig`: the render's parameters and overrides. */
  overrides: URLSearchParams
}

/** How often a link's use is written to its key's `lastUsedAt`, as `createRenderKeyAuthenticator` does for keys. */
const MARK_USED_EVERY_MS = 60_000

const refused = (reason: RenderLinkRefusal, message: string): LithoError => new LithoError('ERR_BAD_SIGNATURE', message, { details: { reason } })

/** Whether a GET render request is a signed link: it carries `sig` (else `exp` and `kid` are ordinary override names). */
export function isSignedRenderLink(query: URLSearchParams): boolean {
  return query.has('sig')
}

/**
 * Checks a signed render link: `designId` is the path's render code (decoded), `query` the
 * request's whole query, `hasKeyHeader` whether a `dma-api-key` header came too.
 *
 * @throws LithoError `ERR_INVALID_REQUEST` naming `exp`, `kid`, `sig` (malformed or given
 * twice) or the render key that must not come with a link; `ERR_BAD_SIGNATURE` with
 * `details.reason` ({@link RenderLinkRefusal}) for a refused link; store errors as they are.
 * @example const link = await verifyRenderLink(services, { designId: 'og-card', query: url.searchParams, hasKeyHeader: false })
 */
export async function verifyRenderLink(services: RenderLinkServices, request: { designId: string; query: URLSearchParams; hasKeyHeader: boolean }): Promise<VerifiedRenderLink> {
  const { query } = request
  const keyNames = RENDER_KEY_QUERY_NAMES.filter((name) => query.has(name))
  if (request.hasKeyHeader || keyNames.length > 0) {
    const where = request.hasKeyHeader ? 'the dma-api-key header' : `the ${keyNames[0]} parameter`
    throw invalidRequest([{ path: request.hasKeyHeader ? 'dma-api-key' : keyNames[0]!, message: `a signed link carries no render key: drop ${where} (a key in a public URL is what links replace)` }])
  }
  const issues = []
  for (const name of RENDER_LINK_PARAMS) {
    const values = query.getAll(name)
    if (values.length > 1) issues.push({ path: name, message: `given ${values.length} times; a signed link has one` })
  }
  const exp = query.get('exp')
  const kid = query.get('kid')
  const sig = query.get('sig') ?? ''
  if (exp !== null && !RENDER_LINK_EXP.test(exp)) issues.push({ path: 'exp', message: 'expected unix seconds (1 to 12 digits)' })
  if (kid === null || !RENDER_LINK_KID.test(kid)) issues.push({ path: 'kid', message: kid === null ? 'missing: a signed link names its render key' : 'expected a render key id (1-64 of A-Z a-z 0-9 _ -)' })
  if (!RENDER_LINK_SIG.test(sig)) issues.push({ path: 'sig', message: 'expected 43 characters of base64url (an HMAC-SHA256)' })
  if (issues.length > 0) throw invalidRequest(issues.sort((a, b) => a.path.localeCompare(b.path)))
  if (services.renderLinks === undefined) throw refused('links_disabled', 'signed render links are not enabled on this server')
  const { masterKey, maxSeconds } = checkRenderLinkSettings(services.renderLinks)

  // The clock before any I/O: an expired or over-long link costs no read.
  const now = clockOf(services).now().getTime()
  const expiresAt = exp === null ? null : new Date(Number(exp) * 1000)
  if (expiresAt !== null && expiresAt.getTime() < now) throw refused('expired', `this signed link expired at ${expiresAt.toISOString()}`)
  if (expiresAt !== null && expiresAt.getTime() > now + maxSeconds * 1000) throw refused('exp_too_far', `exp is more than ${maxSeconds} seconds away; sign a link that expires sooner`)

  // STORE_ID is RENDER_LINK_KID: the id is a valid store id, looked up once.
  const key = STORE_ID.test(kid!) ? await services.accounts.getKey(kid!) : null
  const owner = key === null ? null : await services.accounts.getUser(key.userId)
  if (key === null || owner === null) throw refused('unknown_key', 'no render key has this kid: it was revoked, or never existed')
  if (!key.active) throw refused('key_inactive', 'the render key of this link is deactivated')
  if (key.linkSalt === undefined) throw refused('no_link_secret', 'the render key of this link has no link secret yet: rotate it to sign links')
  const secret = deriveRenderLinkSecret({ masterKey, salt: key.linkSalt, keyId: key.id })
  if (!isRenderLinkSignature(secret, renderLinkStringToSign(request.designId, query), sig)) throw refused('bad_signature', 'the signature does not match this link (edited, or signed with another secret)')

  // Best effort and at most once a minute, like a keyed render's (the port allows it to lag; a
  // popular og:image must not cost a write per view); after the signature only.
  if (key.lastUsedAt === null || now - Date.parse(key.lastUsedAt) >= MARK_USED_EVERY_MS) services.accounts.markKeyUsed?.(key.id, new Date(now).toISOString()).catch(() => {})
  const overrides = new URLSearchParams([...query].filter(([name]) => !(RENDER_LINK_PARAMS as readonly string[]).includes(name)))
  return { account: { id: owner.id, plan: owner.plan }, key, expiresAt, overrides }
}

/**
 * Gives a key a new link secret and returns it, once: every link signed with the old one
 * stops working. Also how a key made before signed links gets its first.
 *
 * @throws LithoError `ERR_KEY_NOT_FOUND` for an unknown key or another account's;
 * `ERR_BAD_SIGNATURE` (`links_disabled`) when the server has no master key; a TypeError
 * `ERR_MISSING_OPTION` when the account store cannot change a key's salt.
 * @example const { linkSecret } = await rotateRenderLinkSecret(services, { account: { id: 'u_1' }, id: 'key_3Jx9' })
 */
export async function rotateRenderLinkSecret(
  services: { accounts: Pick<AccountStore, 'getKey' | 'setKeyLinkSalt'>; renderLinks?: RenderLinkSettings },
  request: { account: BearerAccount; id: string },
): Promise<{ success: true; _id: string; linkSecret: string }> {
  const { account, id } = request
  if (services.renderLinks === undefined) throw refused('links_disabled', 'signed render links are not enabled on this server')
  const { masterKey } = checkRenderLinkSettings(services.renderLinks)
  const setSalt = services.accounts.setKeyLinkSalt
  if (setSalt === undefined) throw Object.assign(new TypeError('Expected the account store to implement setKeyLinkSalt (rotating link secrets)'), { code: 'ERR_MISSING_OPTION' })
  const key = typeof id === 'string' && STORE_ID.test(id) ? await services.accounts.getKey(id) : null
  const salt = createLinkSalt()
  if (key === null || key.userId !== account.id || !(await setSalt.call(services.accounts, id, salt))) {
    const shown = String(id).slice(0, 64)
    throw new LithoError('ERR_KEY_NOT_FOUND', `no API key has the id ${JSON.stringify(shown)}`, { details: { id: shown } })
  }
  return { success: true, _id: id, linkSecret: deriveRenderLinkSecret({ masterKey, salt, keyId: id }) }
}

/**
 * A new key's salt and link secret when the server signs links, else nothing (for `createApiKey`).
 *
 * @example const { linkSalt, linkSecret } = newLinkSecret(services.renderLinks, 'key_3Jx9') ?? {}
 */
export function newLinkSecret(settings: RenderLinkSettings | undefined, keyId: string): { linkSalt: string; linkSecret: string } | undefined {
  if (settings === undefined) return undefined
  const { masterKey } = checkRenderLinkSettings(settings)
  const linkSalt = createLinkSalt()
  return { linkSalt, linkSecret: deriveRenderLinkSecret({ masterKey, salt: linkSalt, keyId }) }
}
