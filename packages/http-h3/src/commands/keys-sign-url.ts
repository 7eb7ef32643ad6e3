/**
 * `litho keys sign-url <render-url | design-code> --kid KEY_ID [--secret LKS] [--expires 7d]
 * [--param name=value]… [--base URL]`: signs a render link offline (docs/signed-render-links.md)
 * and prints `{"url":"…","expiresAt":"…"|null}`. Opens no store and needs no server: only the
 * light `@litho/core/signing` entry is loaded.
 *
 * @module commands/keys-sign-url
 */
import { parseArgs } from 'node:util'
import { signRenderUrl, type SignRenderUrlOptions } from '@litho/core/signing'
import type { AdminCommandIo } from './_admin.js'
import { printJson } from './_admin.js'
import { KEYS_SIGN_URL } from './definitions.js'
import { UsageError } from './usage-error.js'

/** Seconds per unit of `--expires`. */
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 }
/** `--expires` when not given: a week, as the longest signed file URL lives. */
const DEFAULT_EXPIRES = '7d'

/**
 * When `--expires` says the link ends: null for `never`, else a Date after `now`.
 *
 * @example parseExpires('7d', new Date('2026-01-01T00:00:00Z')) // 2026-01-08T00:00:00.000Z
 */
export function parseExpires(value: string, now: Date): Date | null {
  if (value === 'never') return null
  const relative = /^(\d{1,9})([smhd])$/.exec(value)
  const at = relative ? new Date(now.getTime() + Number(relative[1]) * UNITS[relative[2]!]! * 1000) : /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : null
  if (at === null || Number.isNaN(at.getTime())) throw new UsageError(`--expires: expected a lifetime like 30m, 12h or 7d, an ISO date, or never; received ${JSON.stringify(value.slice(0, 40))}`)
  if (at.getTime() <= now.getTime()) throw new UsageError(`--expires: expected a time after now, received ${at.toISOString()}`)
  return at
}

/** Runs `litho keys sign-url`. Returns the exit code; throws UsageError (exit 2). */
export async function keysSignUrlCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const env = io.env ?? process.env
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: KEYS_SIGN_URL.options })
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'keys sign-url needs a render URL or a design code' : `keys sign-url takes one render URL or design code, received ${positionals.length}`)
  const target = positionals[0]!
  if (values.kid === undefined) throw new UsageError('keys sign-url needs --kid (the render key id)')
  const secret = values.secret ?? (env.LITHO_LINK_SECRET || undefined)
  if (secret === undefined) throw new UsageError('keys sign-url needs the link secret: --secret or LITHO_LINK_SECRET')
  const params: Array<[string, string]> = (values.param ?? []).map((pair) => {
    const at = pair.indexOf('=')
    if (at < 1) throw new UsageError(`--param: expected NAME=VALUE, received ${JSON.stringify(pair.slice(0, 60))}`)
    return [pair.slice(0, at), pair.slice(at + 1)]
  })
  const now = io.now?.() ?? new Date()
  const expiresAt = parseExpires(values.expires ?? DEFAULT_EXPIRES, now)

  let where: { url: URL } | { baseUrl: string; designId: string; params: Array<[string, string]> }
  if (/^https?:\/\//i.test(target)) {
    if (values.base !== undefined) throw new UsageError('--base: only with a design code; the URL already says where')
    const url = new URL(target)
    for (const [name, value] of params) url.searchParams.append(name, value)
    where = { url }
  } else {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(target)) throw new UsageError(`expected a render URL (http or https) or a design render code (A-Z a-z 0-9 _ -), received ${JSON.stringify(target.slice(0, 60))}`)
    const base = values.base ?? (env.LITHO_PUBLIC_URL || undefined)
    if (base === undefined) throw new UsageError('a design code needs --base (the render URL, e.g. https://render.example.com) or LITHO_PUBLIC_URL')
    if (!/^https?:\/\/[^/]/i.test(base)) throw new UsageError(`--base: expected an http(s) URL, received ${JSON.stringify(base.slice(0, 60))}`)
    where = { baseUrl: base, designId: target, params }
  }
  let url: string
  try {
    url = await signRenderUrl({ ...where, keyId: values.kid, secret, ...(expiresAt ? { expiresAt } : {}) } as SignRenderUrlOptions)
  } catch (error) {
    // The signer's messages name the field and never contain the secret.
    if ((error as { code?: string }).code === 'ERR_INVALID_ARG_VALUE') throw new UsageError(flagMessage((error as Error).message))
    throw error
  }
  await printJson(io, { url, expiresAt: expiresAt?.toISOString() ?? null })
  return 0
}

/** The signer's message in the words of the flags, e.g. `Expected keyId …` → `--kid: expected …`. */
function flagMessage(message: string): string {
  const flags: Array<[RegExp, string]> = [
    [/^Expected keyId/, '--kid: expected the key id'],
    [/^Expected secret/, '--secret: expected the link secret'],
    [/^Expected the parameters/, '--param: expected the parameters'],
    [/^Expected no render key/, '--param: expected no render key'],
    [/^Expected url/, 'expected the URL'],
  ]
  for (const [pattern, replacement] of flags) if (pattern.test(message)) return message.replace(pattern, replacement)
  return message
}
