/**
 * OAuth clients: dynamic registration (RFC 7591), clients configured ahead of time, and
 * Client ID Metadata Documents (the `client_id` is the https URL of the client's metadata),
 * plus redirect URI rules (RFC 9700: exact match; RFC 8252 §7.3: any port on loopback).
 *
 * @module oauth/clients
 */
import type { AuthStateStore } from '@litho/core/contracts'
import { randomToken, safeEqual, sha256 } from './_http.js'
import { OAuthError } from './oauth-error.js'
import type { ClientRecord, PreIssuedClient } from './types.js'

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])

/**
 * Private-use redirect schemes of well-known MCP hosts that do not follow RFC 8252's
 * reverse-domain rule. PKCE binds the code to the client that asked, so these are safe to allow.
 */
const KNOWN_PRIVATE_REDIRECTS = new Set(['cursor://anysphere.cursor-mcp/oauth/callback'])

/** Why a redirect URI is refused, or null when it is acceptable for registration. */
export function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return 'must be a URL string of at most 2000 characters'
  if (KNOWN_PRIVATE_REDIRECTS.has(value)) return null
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'is not an absolute URL'
  }
  if (url.hash || value.includes('#')) return 'must not have a fragment'
  if (url.username || url.password) return 'must not carry credentials'
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname) ? null : 'may use http only on a loopback host (127.0.0.1, [::1] or localhost); use https'
  // RFC 8252 §7.1: private-use schemes are reverse domain names (`com.example.app:/callback`).
  const scheme = url.protocol.slice(0, -1)
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/.test(scheme)) return null
  return `uses the scheme "${scheme}:", which is not allowed (https, loopback http, or a reverse-domain private-use scheme)`
}

/** True when `requested` matches a registered URI: exactly, or on a loopback host with any port. */
export function redirectUriMatches(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true
  let url: URL
  try {
    url = new URL(requested)
  } catch {
    return false
  }
  // Only canonical loopback URLs (no dot segments, credentials or fragment) match on another port.
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.href !== requested || url.username || url.password || url.hash) return false
  const withoutPort = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`
  return registered.some((candidate) => {
    try {
      const other = new URL(candidate)
      return other.protocol === 'http:' && LOOPBACK_HOSTS.has(other.hostname) && withoutPort(other) === withoutPort(url)
    } catch {
      return false
    }
  })
}

/** An RFC 7591 §3.2.2 error, `invalid_redirect_uri` or `invalid_client_metadata`: a 400 of the registration endpoint. */
export class RegistrationError extends OAuthError {
  override readonly name: string = 'RegistrationError'

  constructor(error: 'invalid_redirect_uri' | 'invalid_client_metadata', message: string) {
    super(error, message)
  }
}

const GRANTS = new Set(['authorization_code', 'refresh_token'])
const AUTH_METHODS = new Set(['none', 'client_secret_basic', 'client_secret_post'])

/** Validates an RFC 7591 registration request into a client (without id and org). */
export function parseRegistration(body: unknown, supportedScopes: readonly string[]): Omit<ClientRecord, 'clientId' | 'orgId' | 'createdAt' | 'source' | 'secretHash'> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new RegistrationError('invalid_client_metadata', 'The body must be a JSON object of client metadata')
  const m = body as Record<string, unknown>
  if (!Array.isArray(m.redirect_uris) || m.redirect_uris.length === 0 || m.redirect_uris.length > 20)
    throw new RegistrationError('invalid_redirect_uri', 'redirect_uris must be an array of 1 to 20 redirect URIs')
  for (const uri of m.redirect_uris) {
    const problem = redirectUriProblem(uri)
    if (problem) throw new RegistrationError('invalid_redirect_uri', `redirect_uris: ${JSON.stringify(uri)} ${problem}`)
  }
  const grantTypes = m.grant_types === undefined ? ['authorization_code'] : m.grant_types
  if (!Array.isArray(grantTypes) || grantTypes.length === 0 || !grantTypes.every((g) => typeof g === 'string' && GRANTS.has(g)))
    throw new RegistrationError('invalid_client_metadata', 'grant_types may only contain "authorization_code" and "refresh_token"')
  if (!grantTypes.includes('authorization_code')) throw new RegistrationError('invalid_client_metadata', 'grant_types must include "authorization_code"')
  const responseTypes = m.response_types === undefined ? ['code'] : m.response_types
  if (!Array.isArray(responseTypes) || !responseTypes.every((r) => r === 'code') || responseTypes.length === 0)
    throw new RegistrationError('invalid_client_metadata', 'response_types may only contain "code"')
  const method = m.token_endpoint_auth_method ?? 'client_secret_basic'
  if (typeof method !== 'string' || !AUTH_METHODS.has(method))
    throw new RegistrationError('invalid_client_metadata', 'token_endpoint_auth_method must be "none", "client_secret_basic" or "client_secret_post"')
  const name = m.client_name === undefined ? 'Unnamed client' : m.client_name
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > 200) throw new RegistrationError('invalid_client_metadata', 'client_name must be a string of 1 to 200 characters')
  // A trailing U+202E turned the consent sentence around ("returning to evil.example" read
  // backwards): no control, format (bidi overrides, isolates, zero-width…) or separator characters.
  const hidden = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.exec(name)
  if (hidden) throw new RegistrationError('invalid_client_metadata', `client_name must not contain control or format characters (U+${hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} at position ${hidden.index})`)
  let scope: string | null = null
  if (m.scope !== undefined) {
    if (typeof m.scope !== 'string') throw new RegistrationError('invalid_client_metadata', 'scope must be a space-separated string')
    const asked = m.scope.split(' ').filter((s) => s && s !== 'offline_access')
    const unknown = asked.filter((s) => !supportedScopes.includes(s))
    if (unknown.length > 0) throw new RegistrationError('invalid_client_metadata', `scope: unknown scope ${unknown.map((s) => JSON.stringify(s)).join(', ')} (supported: ${supportedScopes.join(' ')})`)
    scope = asked.length > 0 ? asked.join(' ') : null
  }
  const applicationType = m.application_type === undefined ? undefined : m.application_type
  if (applicationType !== undefined && applicationType !== 'web' && applicationType !== 'native')
    throw new RegistrationError('invalid_client_metadata', 'application_type must be "web" or "native"')
  const optionalUri = (field: 'client_uri' | 'logo_uri') => {
    const value = m[field]
    if (value === undefined) return undefined
    if (typeof value !== 'string' || !/^https:\/\//.test(value)) throw new RegistrationError('invalid_client_metadata', `${field} must be an https URL`)
    return value
  }
  return {
    clientName: name.trim(),
    redirectUris: m.redirect_uris as string[],
    grantTypes: grantTypes as string[],
    responseTypes: responseTypes as string[],
    tokenEndpointAuthMethod: method as ClientRecord['tokenEndpointAuthMethod'],
    applicationType: applicationType as ClientRecord['applicationType'],
    scope,
    clientUri: optionalUri('client_uri'),
    logoUri: optionalUri('logo_uri'),
  }
}

/** The RFC 7591 response body for a client. */
export function registrationResponse(client: ClientRecord, secret?: string): Record<string, unknown> {
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    client_name: client.clientName,
    redirect_uris: client.redirectUris,
    grant_types: client.grantTypes,
    response_types: client.responseTypes,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    ...(client.applicationType ? { application_type: client.applicationType } : {}),
    ...(client.scope ? { scope: client.scope } : {}),
    ...(client.clientUri ? { client_uri: client.clientUri } : {}),
    ...(client.logoUri ? { logo_uri: client.logoUri } : {}),
  }
}

const METADATA_CACHE_MS = 5 * 60_000

/** Finds clients: configured, registered (state store) or by metadata document. */
export class Clients {
  readonly #state: AuthStateStore
  readonly #configured = new Map<string, ClientRecord>()
  readonly #fetchMetadata?: (url: string) => Promise<unknown>
  readonly #metadataCache = new Map<string, { at: number; client: ClientRecord | null }>()
  readonly #ttlSeconds: number

  constructor(options: { state: AuthStateStore; configured: PreIssuedClient[]; fetchMetadata?: (url: string) => Promise<unknown>; clientTtlSeconds: number; now: () => Date }) {
    this.#state = options.state
    this.#fetchMetadata = options.fetchMetadata
    this.#ttlSeconds = options.clientTtlSeconds
    for (const c of options.configured) {
      for (const uri of c.redirectUris) {
        const problem = redirectUriProblem(uri)
        if (problem) throw Object.assign(new TypeError(`clients: ${c.clientId} redirect URI ${JSON.stringify(uri)} ${problem}`), { code: 'ERR_INVALID_ARG_VALUE' })
      }
      this.#configured.set(c.clientId, {
        clientId: c.clientId,
        orgId: c.orgId ?? null,
        clientName: c.clientName,
        redirectUris: [...c.redirectUris],
        grantTypes: ['authorization_code', 'refresh_token'],
        responseTypes: ['code'],
        tokenEndpointAuthMethod: c.clientSecret ? 'client_secret_basic' : 'none',
        ...(c.clientSecret ? { secretHash: sha256(c.clientSecret) } : {}),
        scope: c.scopes ? c.scopes.join(' ') : null,
        source: 'configured',
        ...(c.firstParty ? { firstParty: true } : {}),
        createdAt: options.now().toISOString(),
      })
    }
  }

  /** True when metadata-document client ids are accepted. */
  get metadataDocuments(): boolean {
    return this.#fetchMetadata !== undefined
  }

  /** Stores a new registered client of `orgId`; returns it with its secret when confidential. */
  async register(orgId: string, metadata: ReturnType<typeof parseRegistration>, now: Date): Promise<{ client: ClientRecord; secret?: string }> {
    const clientId = `${orgId}.${randomToken(16)}`
    const secret = metadata.tokenEndpointAuthMethod === 'none' ? undefined : `lcs_${randomToken(32)}`
    const client: ClientRecord = { ...metadata, clientId, orgId, source: 'registered', createdAt: now.toISOString(), ...(secret ? { secretHash: sha256(secret) } : {}) }
    await this.#state.set(`client.${clientId}`, client, { ttlSeconds: this.#ttlSeconds })
    return { client, secret }
  }

  /** Extends a registered client's life after it was used. */
  async touch(client: ClientRecord): Promise<void> {
    if (client.source === 'registered') await this.#state.set(`client.${client.clientId}`, client, { ttlSeconds: this.#ttlSeconds })
  }

  /** The client with this id, or null. */
  async find(clientId: string): Promise<ClientRecord | null> {
    if (typeof clientId !== 'string' || clientId.length === 0 || clientId.length > 2000) return null
    const configured = this.#configured.get(clientId)
    if (configured) return configured
    if (clientId.startsWith('https://')) return this.#fromMetadataDocument(clientId)
    if (!/^[A-Za-z0-9_.:-]{1,200}$/.test(clientId)) return null
    return (await this.#state.get(`client.${clientId}`)) as ClientRecord | null
  }

  /** True when `secret` is the client's secret (constant time). */
  static checkSecret(client: ClientRecord, secret: string | undefined): boolean {
    if (!client.secretHash) return false
    return typeof secret === 'string' && safeEqual(sha256(secret), client.secretHash)
  }

  async #fromMetadataDocument(clientId: string): Promise<ClientRecord | null> {
    if (!this.#fetchMetadata) return null
    const cached = this.#metadataCache.get(clientId)
    if (cached && Date.now() - cached.at < METADATA_CACHE_MS) return cached.client
    let client: ClientRecord | null = null
    try {
      const url = new URL(clientId)
      if (url.hash || url.username || url.password || url.pathname === '/') throw new Error('not a client id URL')
      const document = await this.#fetchMetadata(clientId)
      if (typeof document !== 'object' || document === null || (document as { client_id?: unknown }).client_id !== clientId) throw new Error('client_id of the document differs')
      const parsed = parseRegistration({ ...(document as object), token_endpoint_auth_method: (document as { token_endpoint_auth_method?: unknown }).token_endpoint_auth_method ?? 'none' }, ['read', 'write'])
      if (parsed.tokenEndpointAuthMethod !== 'none') throw new Error('only public clients may use a metadata document')
      client = { ...parsed, clientId, orgId: null, source: 'metadata-document', createdAt: new Date().toISOString() }
    } catch {
      client = null
    }
    this.#metadataCache.set(clientId, { at: Date.now(), client })
    if (this.#metadataCache.size > 1000) this.#metadataCache.delete(this.#metadataCache.keys().next().value!)
    return client
  }
}
