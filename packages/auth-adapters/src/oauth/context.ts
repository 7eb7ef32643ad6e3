/**
 * The state of one authorization server, built once from its options and handed to every
 * endpoint: the stores, the org keys, the clients, the limits, the clock, the password pool.
 * Endpoints keep nothing of their own; what a request carries comes with the request.
 *
 * @module oauth/context
 */
import type { AccountStore, AuthStateStore, Clock, Meter } from '@litho/core/contracts'
import { sharedPasswordPool, type PasswordVerifier } from '../password-pool.js'
import { Clients } from './clients.js'
import type { CookieScope } from './cookies.js'
import { Orgs } from './orgs.js'
import { normalizeResource } from './paths.js'
import { SignInLimits } from './sign-in-limits.js'
import type { AuthorizationServerOptions, RequestContext } from './types.js'
import { createBuiltInVerifier } from './verify-access-token.js'

/** Lifetimes and limits, checked once at construction. */
export interface OAuthLimits {
  /** Access token lifetime. */
  readonly accessTtl: number
  /** Authorization code lifetime (at most 600, RFC 6749 §4.1.2). */
  readonly codeTtl: number
  /** Absolute lifetime of a refresh-token family. */
  readonly refreshTtl: number
  /** How long a just-rotated refresh token may be presented again (concurrent refreshes). */
  readonly graceSeconds: number
  /** Sign-in session lifetime. */
  readonly sessionTtl: number
  /** Dynamic registrations per client address per hour. */
  readonly registrationsPerHour: number
}

/** Everything the endpoints of one authorization server share. */
export interface OAuthContext {
  /** `{auth_url}` without a trailing slash. */
  readonly authUrl: string
  /** The path of `{auth_url}` (`''` at the root): `handle()` serves what lies below it. */
  readonly authPath: string
  /** The resources tokens may be issued for (RFC 8707); the first is the default audience. */
  readonly resources: readonly string[]
  /** Codes, tokens, sessions, clients, orgs and keys. */
  readonly state: AuthStateStore
  /** Who signs in. */
  readonly accounts: Pick<AccountStore, 'getUser' | 'findUserByEmail'>
  /** Counts registrations and sign-ins for rate limits; without it there are none. */
  readonly meter: Meter | undefined
  /** The time, from the clock of the options. */
  readonly now: () => Date
  readonly limits: OAuthLimits
  /** The limits of the sign-in form, charged before any password is hashed. */
  readonly signInLimits: SignInLimits
  /** Checks passwords off the event loop, bounded (the shared pool by default). */
  readonly passwords: PasswordVerifier
  /** Where the cookies of the sign-in pages go, and whether they are Secure. */
  readonly cookies: CookieScope
  /** The orgs and their signing keys. */
  readonly orgs: Orgs
  /** Configured, registered and metadata-document clients. */
  readonly clients: Clients
  /** Verifies this server's access tokens, and finds the family of one for revocation. */
  readonly verifier: ReturnType<typeof createBuiltInVerifier>
  /** Reports an unexpected error (the client sees a generic `server_error`). */
  readonly report: (error: unknown) => void
  /** The org of this deployment once `ensureDefaultOrg` has run: the org of requests that name none. */
  defaultOrg: string | undefined
  /** The issuer of org `orgId`: `{auth_url}/org/<orgId>`. */
  issuer(orgId: string): string
  /** The absolute URL of one of the server's paths, with `?org=` when `orgId` is given. */
  endpointUrl(path: string, orgId?: string): string
}

const systemClock: Clock = { now: () => new Date() }

/** A caller's mistake in the options: a coded TypeError, thrown at once. */
function invalidOption(message: string): TypeError {
  return Object.assign(new TypeError(message), { code: 'ERR_INVALID_ARG_VALUE' })
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < 1) throw invalidOption(`Expected options.${name} to be a whole number ≥ 1 but received ${value}`)
  return value
}

/** Checks the options and builds the shared state of a server (no I/O: orgs and keys come on first use). */
export function createOAuthContext(options: AuthorizationServerOptions): OAuthContext {
  if (typeof options?.authUrl !== 'string' || !/^https?:\/\//.test(options.authUrl)) throw invalidOption('Expected options.authUrl to be an http(s) URL')
  if (!Array.isArray(options.resources) || options.resources.length === 0) throw invalidOption('Expected options.resources to list at least one resource URL')
  const authUrl = normalizeResource(options.authUrl)
  const authPath = new URL(authUrl).pathname.replace(/\/$/, '')
  const { state, accounts, meter } = options
  const clock = options.clock ?? systemClock
  const now = () => clock.now()
  const accessTtl = positive('accessTokenTtlSeconds', options.accessTokenTtlSeconds, 3600)
  const codeTtl = positive('codeTtlSeconds', options.codeTtlSeconds, 60)
  if (codeTtl > 600) throw invalidOption('Expected options.codeTtlSeconds to be at most 600 (RFC 6749 §4.1.2)')
  const refreshTtl = positive('refreshTokenTtlSeconds', options.refreshTokenTtlSeconds, 30 * 86400)
  const graceSeconds = options.refreshGraceSeconds ?? 60
  const sessionTtl = positive('sessionTtlSeconds', options.sessionTtlSeconds, 8 * 3600)
  const signInLimits = new SignInLimits({
    meter,
    state,
    now,
    perPair: positive('signInAttempts', options.signInAttempts, 10),
    perAddress: positive('signInsPerAddress', options.signInsPerAddress, 60),
    perAccount: positive('signInsPerAccount', options.signInsPerAccount, 100),
  })
  const passwords = options.passwordVerifier ?? sharedPasswordPool()
  const registrationsPerHour = positive('registrationsPerHour', options.registrationsPerHour, 30)
  const secure = options.secureCookies ?? authUrl.startsWith('https://')
  const report = options.onError ?? ((error: unknown) => console.error('[litho oauth]', error))
  const orgs = new Orgs(state, now)
  const clients = new Clients({ state, configured: options.clients ?? [], fetchMetadata: options.fetchClientMetadata, clientTtlSeconds: positive('clientTtlSeconds', options.clientTtlSeconds, 90 * 86400), now })
  return {
    authUrl,
    authPath,
    resources: options.resources.map(normalizeResource),
    state,
    accounts,
    meter,
    now,
    limits: { accessTtl, codeTtl, refreshTtl, graceSeconds, sessionTtl, registrationsPerHour },
    signInLimits,
    passwords,
    // The cookies go only to the OAuth endpoints, below the path of {auth_url}.
    cookies: { path: `${authPath}/api/v1/auth/oauth2`, secure },
    orgs,
    clients,
    verifier: createBuiltInVerifier({ authUrl, orgs, state, now }),
    report,
    defaultOrg: undefined,
    issuer: (orgId) => `${authUrl}/org/${orgId}`,
    endpointUrl: (path, orgId) => `${authUrl}${path}${orgId ? `?org=${encodeURIComponent(orgId)}` : ''}`,
  }
}

/** What a handler gets for one request: the server's shared context, the transport's facts, the path's parameters. */
export interface EndpointContext extends RequestContext {
  /** The state of the server, shared by every request. */
  readonly server: OAuthContext
  /** The parameters of the endpoint's path (`org` of the metadata and JWKS paths), already percent-decoded. */
  readonly params: Readonly<Record<string, string>>
}

/** An endpoint: a plain function from a request to its response; it throws an `OAuthError` to refuse, anything else on failure. */
export type EndpointHandler = (request: Request, context: EndpointContext) => Promise<Response>
