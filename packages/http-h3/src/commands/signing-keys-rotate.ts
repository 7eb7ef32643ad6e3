/**
 * `litho signing-keys rotate urls|tokens|all [--org ID] [--data DIR]`: gives the service new
 * signing keys without breaking what the old ones signed.
 *
 * - `urls`: a new key in front of `<data>/secrets/url-signing-key`; `litho serve` signs file
 *   URLs with it from its next start, and the old keys keep verifying until every URL they signed
 *   has expired (7 days), when a later rotation removes them. With `LITHO_URL_SIGNING_KEY` set,
 *   keys live in the environment: the command prints a new key to stage there instead.
 * - `tokens`: a new ES256 key for the org (default: the one `litho serve` created); new access
 *   tokens carry its `kid` (on running instances within a minute), the old key stays in the
 *   JWKS and verifies until its last token has expired (1 h and 5 min), then is retired.
 *
 * Prints `{"urls":{…},"tokens":{…}}` (what was rotated).
 *
 * @module commands/signing-keys-rotate
 */
import { parseArgs } from 'node:util'
import { rotateOrgSigningKey } from '@litho/auth-adapters'
import { generateUrlSigningKey, rotateUrlSigningKeyFile } from '../url-signing-keys.js'
import { printJson, resolveDataDir, withBackends, type AdminCommandIo } from './_admin.js'
import { CommandError } from './command-error.js'
import { SIGNING_KEYS_ROTATE } from './definitions.js'
import { UsageError } from './usage-error.js'

const WHICH = ['urls', 'tokens', 'all'] as const

/**
 * Runs `litho signing-keys rotate`. Returns the exit code; throws UsageError (exit 2) or CommandError (exit 1).
 *
 * @example await signingKeysRotateCommand(['tokens', '--data', '/srv/litho'], { writeStdout, writeStderr })
 */
export async function signingKeysRotateCommand(argv: string[], io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: SIGNING_KEYS_ROTATE.options })
  if (positionals.length !== 1 || !(WHICH as readonly string[]).includes(positionals[0]!)) {
    throw new UsageError(`signing-keys rotate needs one of ${WHICH.join(', ')}${positionals.length === 0 ? '' : `, received ${JSON.stringify(positionals.join(' '))}`}`)
  }
  const which = positionals[0] as (typeof WHICH)[number]
  if (values.org !== undefined && which === 'urls') throw new UsageError('--org: only for tokens (URL-signing keys belong to the whole service)')
  const env = io.env ?? process.env
  const now = io.now?.() ?? new Date()
  const answer: Record<string, unknown> = {}

  if (which === 'urls' || which === 'all') {
    if (env.LITHO_URL_SIGNING_KEY?.trim()) {
      // The keys are the operator's (every instance must share them): we cannot edit their
      // environment, so we hand over a key to stage there (docs/operations/key-rotation.md).
      const key = generateUrlSigningKey(now)
      answer.urls = {
        rotated: false,
        source: 'LITHO_URL_SIGNING_KEY',
        newKey: { kid: key.id, secret: key.secret },
        next: `add ${key.id}:<secret> to LITHO_URL_VERIFY_KEYS on every instance and restart them; then set LITHO_URL_SIGNING_KEY=<secret>, LITHO_URL_SIGNING_KEY_ID=${key.id} and move the old key into LITHO_URL_VERIFY_KEYS, and restart; drop the old key after 7 days`,
      }
    } else {
      const rotated = await rotateUrlSigningKeyFile(resolveDataDir(values.data, io), now)
      answer.urls = { rotated: true, kid: rotated.kid, verifying: rotated.verifying, removed: rotated.removed, file: rotated.file, next: 'restart litho serve: it signs with the new key from its next start' }
    }
  }

  if (which === 'tokens' || which === 'all') {
    answer.tokens = await withBackends(values.data, io, async ({ authState }) => {
      const orgId = values.org ?? ((await authState.get('meta.default-org')) as string | null)
      if (orgId === null) throw new CommandError('no org yet: the first start of litho serve creates it (with its first key)')
      try {
        const rotated = await rotateOrgSigningKey(authState, { orgId, now })
        return { org: rotated.orgId, kid: rotated.kid, retiring: rotated.retiring, removed: rotated.removed }
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_INVALID_ARG_VALUE') throw new CommandError(`--org: ${(error as Error).message}`)
        throw error
      }
    })
  }

  await printJson(io, answer)
  return 0
}
