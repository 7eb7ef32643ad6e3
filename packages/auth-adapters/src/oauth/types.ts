/**
 * Options and records of the built-in OAuth 2.1 authorization server.
 *
 * @module oauth/types
 */
import type { AccountStore, AuthStateStore, Clock, Meter } from '@litho/core/contracts'
import type { PasswordVerifier } from '../password-pool.js'

/** The scopes of the Litho API: `read` for reads, `write` for changes. */
export const SCOPES = ['read', 'write'] as const

/** A client registered ahead of time (configuration, not dynamic registration). */
export interface PreIssuedClient {
  /** The `client_id` clients send, `[A-Za-z0-9_.:-]{1,200}`. */
  clientId: string
  /** Shown on the consent page. */
  clientName: string
  /** Exact redirect URIs (loopback http URIs match on any port). */
  redirectUris: string[]
  /** The org it belongs to; default: the server's default org. */
  orgId?: string
  /** For a confidential client: the secret (compared by its SHA-256 hash). Public when absent. */
  clientSecret?: string
  /** Scopes it may ask for; default all. */
  scopes?: string[]
  /**
   * The service's own app (the Litho Console): a signed-in user is sent back with a code
   * without the consent page. Only for a client whose redirect URIs are the service's own.
   * @default false
   */
  firstParty?: boolean
}

/** Options of {@link createAuthorizationServer}. */
export interface AuthorizationServerOptions {
  /** The `{auth_url}` of docs/http-reference.md, no trailing slash, e.g. `https://auth.example.com`. */
  authUrl: string
  /**
   * The resources (RFC 8707) tokens may be issued for: the API base address and the MCP
   * endpoint, e.g. `['https://api.example.com', 'https://api.example.com/api/mcp']`. The first is
   * the audience when a request names none.
   */
  resources: string[]
  /** Where codes, tokens, clients, sessions and signing keys live. */
  state: AuthStateStore
  /** Users who sign in (by email and password). */
  accounts: Pick<AccountStore, 'getUser' | 'findUserByEmail'>
  /** Counts sign-in and registration attempts for rate limits; without it there are none. */
  meter?: Meter
  /** @default the system clock */
  clock?: Clock
  /** Clients registered by configuration. */
  clients?: PreIssuedClient[]
  /**
   * Fetches a Client ID Metadata Document (the `client_id` is its https URL). Give one that
   * applies the deployment's network policy (no private addresses); without it, URL client ids
   * are refused and the metadata does not advertise them.
   */
  fetchClientMetadata?: (url: string) => Promise<unknown>
  /** Access token lifetime. @default 3600 */
  accessTokenTtlSeconds?: number
  /** Authorization code lifetime (RFC 6749 recommends at most 600). @default 60 */
  codeTtlSeconds?: number
  /** Absolute lifetime of a refresh-token family. @default 2592000 (30 days) */
  refreshTokenTtlSeconds?: number
  /** How long the refresh token just rotated may be used again (concurrent refreshes). @default 60 */
  refreshGraceSeconds?: number
  /** Sign-in session lifetime. @default 28800 (8 hours) */
  sessionTtlSeconds?: number
  /** How long a dynamically registered client stays without being used. @default 7776000 (90 days) */
  clientTtlSeconds?: number
  /**
   * Sign-in attempts per (email, client address) in 15 minutes; failures of the pair also wait
   * longer and longer (3 free, then 1 s, 2 s, 4 s … up to 15 min). A success gives its attempt back.
   * @default 10
   */
  signInAttempts?: number
  /** Sign-in attempts (successes too) per client address in 15 minutes. @default 60 */
  signInsPerAddress?: number
  /** Sign-in attempts (successes too) per email, from all addresses together, in 15 minutes. @default 100 */
  signInsPerAccount?: number
  /**
   * Checks passwords. @default the process-wide pool of `sharedPasswordPool()`: one hash at a
   * time on a thread of its own, 4 waiting, the rest answered 503 with `Retry-After`.
   */
  passwordVerifier?: PasswordVerifier
  /** Dynamic registrations per client address per hour. @default 30 */
  registrationsPerHour?: number
  /** Mark cookies Secure. @default true when `authUrl` is https */
  secureCookies?: boolean
  /** Reports unexpected errors (storage down…); the client sees a generic `server_error`. */
  onError?: (error: unknown) => void
}

/** Per-request facts the transport knows and the server does not. */
export interface RequestContext {
  /** The client's network address, for rate limits. */
  clientAddress?: string
}

/** An org: a tenant with its own issuer, clients and signing keys. */
export interface OrgRecord {
  id: string
  createdAt: string
}

/** A client as the server uses it. */
export interface ClientRecord {
  clientId: string
  orgId: string | null
  clientName: string
  redirectUris: string[]
  grantTypes: string[]
  responseTypes: string[]
  tokenEndpointAuthMethod: 'none' | 'client_secret_basic' | 'client_secret_post'
  /** `sha256` (base64url) of the secret of a confidential client. */
  secretHash?: string
  applicationType?: 'web' | 'native'
  /** Scopes the client may ask for (space separated), or null for all. */
  scope: string | null
  /** How it came to be known. */
  source: 'registered' | 'configured' | 'metadata-document'
  /** A configured client of the service itself: no consent page (`firstParty` of PreIssuedClient). */
  firstParty?: boolean
  createdAt: string
  clientUri?: string
  logoUri?: string
}

/** What the bearer verifiers return for a valid token. */
export interface BearerPrincipal {
  /** The Litho user id (`sub`). */
  userId: string
  /** The OAuth client the token was issued to. */
  clientId: string
  scopes: string[]
  /** The audience the token was checked against. */
  audience: string
  issuer: string
  /** The org of a built-in token; null for external ones. */
  orgId: string | null
  tokenId: string
  expiresAt: Date
}

/** Verifies bearer access tokens for one resource. */
export interface BearerVerifier {
  /**
   * Returns the principal of a valid token issued for `resource`.
   *
   * @throws BearerTokenError when the token is malformed, badly signed, expired, revoked or for
   * another audience.
   */
  verify(token: string, options: { resource: string }): Promise<BearerPrincipal>
}

/**
 * A token that must be refused with 401 `invalid_token`.
 *
 * @example
 * throw new BearerTokenError('The access token was issued for another resource', { wrongAudience: true })
 */
export class BearerTokenError extends Error {
  override readonly name = 'BearerTokenError'
  readonly code = 'ERR_INVALID_TOKEN'
  /**
   * True when the audience was refused (the signature and issuer were good): the token may be
   * good for another resource, so an endpoint that serves several (`/api/mcp`) tries the next.
   */
  readonly wrongAudience: boolean

  constructor(message: string, options: ErrorOptions & { wrongAudience?: boolean } = {}) {
    super(message, options)
    this.wrongAudience = options.wrongAudience === true
  }
}

/** The verifier cannot check tokens right now (an external JWKS is unreachable): answer 503, not 401. */
export class BearerVerifierUnavailableError extends Error {
  override readonly name = 'BearerVerifierUnavailableError'
  readonly code = 'ERR_VERIFIER_UNAVAILABLE'
}
