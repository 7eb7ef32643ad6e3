/**
 * `litho token create --email E [--scope "read write"] [--ttl 1h] [--resource URL|mcp] [--url URL] [--data DIR]`
 * and `litho token revoke TOKEN`: access tokens for scripts, minted by the operator with the
 * server's own signing key (it holds the store, as `keys create` does) instead of the
 * authorization flow, which stays the way for third-party clients (docs/authentication.md).
 *
 * The token's issuer and audience are addresses of the running service, so the command must know
 * it: `--url`, else `LITHO_PUBLIC_URL`, else `http://127.0.0.1:$PORT` (3000), as `litho serve`
 * derives it.
 *
 * @module commands/token
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { printJson, readEmail, withBackends, type AdminCommandIo } from './_admin.js'
import { CommandError } from './command-error.js'
import { TOKEN_CREATE, TOKEN_REVOKE } from './definitions.js'
import { UsageError } from './usage-error.js'

/** Seconds per unit of `--ttl`. */
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600 }

/**
 * `--ttl` in seconds: a whole number and a unit (s, m, h).
 *
 * @example parseTtl('90m') // 5400
 */
export function parseTtl(value: string): number {
  const match = /^(\d{1,6})([smh])$/.exec(value)
  if (!match) throw new UsageError(`--ttl: expected a lifetime like 90s, 30m or 1h (up to 24h), received ${JSON.stringify(value.slice(0, 40))}`)
  return Number(match[1]) * UNITS[match[2]!]!
}

/** The service's address: `--url`, else `LITHO_PUBLIC_URL`, else where `litho serve` listens by default. */
function serviceUrl(flag: string | undefined, env: Record<string, string | undefined>): string {
  const raw = flag ?? (env.LITHO_PUBLIC_URL || `http://127.0.0.1:${env.PORT || '3000'}`)
  if (!/^https?:\/\/[^/]/.test(raw)) throw new UsageError(`--url: expected the service's http(s) address, received ${JSON.stringify(raw.slice(0, 80))}`)
  let end = raw.length
  while (end > 0 && raw[end - 1] === '/') end -= 1
  return raw.slice(0, end)
}

/** Opens the stores and the authorization server of the service at `url`. */
async function withAuthorizationServer<T>(values: { data?: string | undefined; url?: string | undefined }, io: AdminCommandIo, task: (oauth: import('@litho/auth-adapters').AuthorizationServer, backends: import('../backends.js').LithoBackends, url: string) => Promise<T>): Promise<T> {
  const env = io.env ?? process.env
  const url = serviceUrl(values.url, env)
  return withBackends(values.data, io, async (backends) => {
    const { createOAuthFromEnv } = await import('../oauth-config.js')
    const now = io.now
    const { oauth } = await createOAuthFromEnv({ url, state: backends.authState, accounts: backends.accounts, meter: backends.meter, env, ...(now ? { clock: { now } } : {}) })
    return task(oauth, backends, url)
  })
}

/** Runs `litho token create`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1). */
export async function tokenCreateCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: TOKEN_CREATE.options })
  if (positionals.length > 0) throw new UsageError(`token create takes no positional arguments, received ${JSON.stringify(positionals[0])}`)
  const email = readEmail(values.email, 'token create')
  const ttlSeconds = values.ttl === undefined ? undefined : parseTtl(values.ttl)
  return withAuthorizationServer(values, io, async (oauth, { accounts }, url) => {
    const user = await accounts.findUserByEmail(email)
    if (user === null) throw new CommandError(`no user with email ${email} (create one with: litho users create --email ${email})`)
    const resource = values.resource === 'mcp' ? `${url}/api/mcp` : values.resource
    try {
      const minted = await oauth.mintAccessToken({ userId: user.id, scope: values.scope, resource, ttlSeconds })
      await printJson(io, {
        accessToken: minted.accessToken,
        tokenType: minted.tokenType,
        expiresAt: minted.expiresAt.toISOString(),
        expiresIn: minted.expiresIn,
        scope: minted.scope,
        audience: minted.audience,
      })
    } catch (error) {
      // The server's own words name the field: scope, resource or ttl.
      if ((error as { code?: string }).code === 'ERR_INVALID_ARG_VALUE') throw new UsageError(`--${(error as Error).message}`)
      throw error
    }
    return 0
  })
}

/** Runs `litho token revoke`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1). */
export async function tokenRevokeCommand(argv: string[], io: AdminCommandIo & { readStdin?: () => string }): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: TOKEN_REVOKE.options })
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'token revoke needs the access token (or - to read it from stdin)' : `token revoke takes one token, received ${positionals.length}`)
  const token = (positionals[0] === '-' ? (io.readStdin ?? (() => readFileSync(0, 'utf8')))() : positionals[0]!).trim()
  return withAuthorizationServer(values, io, async (oauth) => {
    if (!(await oauth.revokeAccessToken(token))) throw new CommandError('not a live access token of this service (malformed, signed by another server or for another --url, or already expired)')
    await printJson(io, { revoked: true })
    return 0
  })
}
