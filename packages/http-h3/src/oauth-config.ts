/**
 * The built-in authorization server of `litho serve`, configured from `LITHO_*` variables:
 *
 * | variable | effect |
 * |---|---|
 * | `LITHO_ORG_ID` | the id of the org created on first start (default: random); ignored once the data has an org |
 * | `LITHO_OAUTH_CLIENTS` | pre-issued clients, a JSON array of `{ clientId, clientName, redirectUris, clientSecret?, scopes? }` |
 * | `LITHO_TRUST_PROXY` | `1`: take the client address of rate limits from `X-Forwarded-For` (only behind a proxy that sets it) |
 *
 * Client ID Metadata Documents are fetched under the same network policy as remote images
 * (`LITHO_ALLOW_NETWORKS`, `LITHO_ALLOW_HTTP`): https only, no private addresses, 64 KiB, 5 s.
 *
 * @module oauth-config
 */
import { fetchRemote, networkPolicyFromEnv } from '@litho/core'
import { CONSOLE_CLIENT_ID } from '@litho/console'
import type { AccountStore, AuthStateStore, Clock, Meter } from '@litho/core/contracts'
import { OPERATOR_CLIENT_ID, createAuthorizationServer, type AuthorizationServer, type PreIssuedClient } from '@litho/auth-adapters'
import { ConfigError } from './backends.js'

/** What {@link createOAuthFromEnv} needs besides the environment. */
export interface OAuthFromEnvOptions {
  /** The service's public address: `{auth_url}` and `{base_url}`. */
  url: string
  state: AuthStateStore
  accounts: AccountStore
  meter: Meter
  clock?: Clock
  env: Record<string, string | undefined>
  onError?: (error: unknown) => void
  /** Register the console's own client (`litho-console`, redirect URI `{url}/console/`). @default false */
  console?: boolean
}

/** The console's client, or null when its redirect URI would be refused (https, or http on a loopback host only). */
export function consoleClient(url: string): PreIssuedClient | null {
  const redirectUri = `${url}/console/`
  const { protocol, hostname } = new URL(redirectUri)
  if (protocol !== 'https:' && !(protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname))) return null
  return { clientId: CONSOLE_CLIENT_ID, clientName: 'Litho Console', redirectUris: [redirectUri], firstParty: true }
}

/**
 * Creates the authorization server of one `litho serve` and its default org.
 *
 * @throws ConfigError when `LITHO_OAUTH_CLIENTS` or `LITHO_ORG_ID` is malformed.
 */
export async function createOAuthFromEnv(options: OAuthFromEnvOptions): Promise<{ oauth: AuthorizationServer; orgId: string }> {
  const { env, url } = options
  const builtIn = options.console ? consoleClient(url) : null
  // Configured clients come after: one also named litho-console replaces the built-in.
  const clients = [...(builtIn ? [builtIn] : []), ...readClients(env.LITHO_OAUTH_CLIENTS)]
  const orgIdVariable = env.LITHO_ORG_ID || undefined
  if (orgIdVariable !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(orgIdVariable)) throw new ConfigError('LITHO_ORG_ID: expected 1-64 letters, digits, "_" or "-"')
  const policy = networkPolicyFromEnv(env)
  let oauth: AuthorizationServer
  try {
    oauth = createAuthorizationServer({
      authUrl: url,
      resources: [url, `${url}/api/mcp`],
      state: options.state,
      accounts: options.accounts,
      meter: options.meter,
      clients,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
      async fetchClientMetadata(clientId) {
        const { bytes } = await fetchRemote(clientId, { policy, limits: { maxBytes: 64 * 1024, timeoutMs: 5_000, connectTimeoutMs: 5_000, maxRedirects: 0 }, accept: 'application/json' })
        return JSON.parse(bytes.toString('utf8')) as unknown
      },
    })
  } catch (error) {
    // Only the configured clients can be wrong here (a redirect URI); anything else is a bug.
    if (/^clients: /.test((error as Error).message)) throw new ConfigError(`LITHO_OAUTH_CLIENTS: ${(error as Error).message.slice('clients: '.length)}`)
    throw error
  }
  const orgId = await oauth.ensureDefaultOrg(orgIdVariable)
  return { oauth, orgId }
}

function readClients(value: string | undefined): PreIssuedClient[] {
  if (!value) return []
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    throw new ConfigError('LITHO_OAUTH_CLIENTS: expected a JSON array of clients, received something that is not JSON')
  }
  if (!Array.isArray(parsed)) throw new ConfigError('LITHO_OAUTH_CLIENTS: expected a JSON array of clients')
  return parsed.map((entry, index) => {
    const c = entry as Partial<PreIssuedClient>
    const where = `LITHO_OAUTH_CLIENTS[${index}]`
    if (typeof c !== 'object' || c === null) throw new ConfigError(`${where}: expected an object`)
    if (typeof c.clientId !== 'string' || !/^[A-Za-z0-9_.:-]{1,200}$/.test(c.clientId)) throw new ConfigError(`${where}.clientId: expected 1-200 letters, digits, "_", ".", ":" or "-"`)
    if (c.clientId === OPERATOR_CLIENT_ID) throw new ConfigError(`${where}.clientId: "${OPERATOR_CLIENT_ID}" is reserved for the tokens of litho token create`)
    if (typeof c.clientName !== 'string' || c.clientName.length === 0) throw new ConfigError(`${where}.clientName: expected a non-empty string`)
    if (!Array.isArray(c.redirectUris) || c.redirectUris.length === 0 || !c.redirectUris.every((u) => typeof u === 'string')) throw new ConfigError(`${where}.redirectUris: expected an array of URLs`)
    if (c.clientSecret !== undefined && (typeof c.clientSecret !== 'string' || c.clientSecret.length < 32)) throw new ConfigError(`${where}.clientSecret: expected a string of at least 32 characters`)
    if (c.scopes !== undefined && (!Array.isArray(c.scopes) || !c.scopes.every((s) => s === 'read' || s === 'write'))) throw new ConfigError(`${where}.scopes: expected an array of "read" and "write"`)
    return { clientId: c.clientId, clientName: c.clientName, redirectUris: c.redirectUris, ...(c.clientSecret ? { clientSecret: c.clientSecret } : {}), ...(c.scopes ? { scopes: c.scopes } : {}) }
  })
}
