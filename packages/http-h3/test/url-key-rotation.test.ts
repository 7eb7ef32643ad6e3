// Rotating the key that signs the URLs of files the app serves itself (fs and Redis file
// stores): the key file of the data directory (`litho signing-keys rotate urls`), and keys in
// the environment for instances that share them. "Restarting serve" is createBackends again.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { createAuthorizationServer } from '@litho/auth-adapters'
import { ConfigError, SIGNING_KEY_FILE, createBackends, rotateUrlSigningKeyFile, type LithoBackends } from '../src/index.js'

const FILES = 'http://127.0.0.1:3000/files'
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const DAY = 86_400_000
const tempDir = () => mkdtempSync(join(tmpdir(), 'litho-url-keys-'))
const open: LithoBackends[] = []
/** What `litho serve` builds at start: its signer reads the keys once. */
const start = async (dataDir: string, env: Record<string, string> = {}) => {
  const backends = await createBackends({ dataDir, filesBaseUrl: FILES, env })
  open.push(backends)
  return backends
}
afterAll(async () => {
  await Promise.all(open.map((backends) => backends.dispose()))
})

/** A signed file URL's query, as the file stores make it. */
const sign = (backends: LithoBackends, now = new Date(), seconds = 3600) => backends.signer.sign({ path: '/u_1/r_1.png', expiresAt: new Date(now.getTime() + seconds * 1000), now })
const verify = (backends: LithoBackends, query: URLSearchParams, now = new Date()) => backends.signer.verify({ path: '/u_1/r_1.png', query, now })
const secret = () => randomBytes(32).toString('base64url')

describe('URL-signing key rotation › the key file', () => {
  it('an old signed URL still verifies after rotation, new URLs carry the new kid, an unknown kid is refused', async () => {
    const dataDir = tempDir()
    const before = await start(dataDir)
    const old = sign(before)
    expect(old.get('kid')).toBe('k1')

    const now = new Date()
    const rotated = await rotateUrlSigningKeyFile(dataDir, now)
    expect(rotated).toMatchObject({ kid: `k${now.toISOString().slice(0, 19).replace(/[-:]/g, '')}`, verifying: ['k1'], removed: [] })
    // Read at start: the running process keeps signing with k1 (which still verifies everywhere).
    expect(sign(before).get('kid')).toBe('k1')

    const after = await start(dataDir)
    expect(after.describe).toContain(`url signing key: file (${join(dataDir, SIGNING_KEY_FILE)}), kid ${rotated.kid} signs, k1 only verify`)
    expect(verify(after, old)).toMatchObject({ ok: true })
    const fresh = sign(after)
    expect(fresh.get('kid')).toBe(rotated.kid)
    expect(verify(after, fresh)).toMatchObject({ ok: true })
    // A kid no key has: refused as such; a kid edited onto another key's signature: refused too.
    expect(verify(after, new URLSearchParams({ exp: old.get('exp')!, kid: 'k9', sig: old.get('sig')! }))).toEqual({ ok: false, reason: 'unknown_key' })
    expect(verify(after, new URLSearchParams({ exp: old.get('exp')!, kid: rotated.kid, sig: old.get('sig')! }))).toEqual({ ok: false, reason: 'bad_signature' })
    expect(statSync(join(dataDir, SIGNING_KEY_FILE)).mode & 0o777).toBe(0o600)
  })

  it('an old key is removed by the first rotation more than 8 days after its successor (its URLs all expired)', async () => {
    const dataDir = tempDir()
    const t0 = new Date('2026-11-01T00:00:00Z')
    const first = await rotateUrlSigningKeyFile(dataDir, t0)
    const beforeSecond = await start(dataDir)
    const second = await rotateUrlSigningKeyFile(dataDir, new Date(t0.getTime() + 3 * DAY))
    expect(second.verifying).toEqual([first.kid, 'k1'])
    // k1 stopped signing at t0, first.kid at t0 + 3 days.
    const third = await rotateUrlSigningKeyFile(dataDir, new Date(t0.getTime() + 9 * DAY))
    expect(third).toMatchObject({ verifying: [second.kid, first.kid], removed: ['k1'] })
    const fourth = await rotateUrlSigningKeyFile(dataDir, new Date(t0.getTime() + 12 * DAY))
    expect(fourth).toMatchObject({ verifying: [third.kid, second.kid], removed: [first.kid] })
    // A URL of a removed key (long expired anyway) names a kid nobody has.
    const last = await start(dataDir)
    const issued = new Date(t0.getTime() + 3 * DAY - 60_000)
    expect(verify(last, sign(beforeSecond, issued, 60), issued)).toEqual({ ok: false, reason: 'unknown_key' })
  })

  it('a key file from before rotation (one bare secret) is the key k1, and keeps verifying after the first rotation', async () => {
    const dataDir = tempDir()
    const legacy = await start(dataDir)
    const url = sign(legacy)
    expect(readFileSync(join(dataDir, SIGNING_KEY_FILE), 'utf8')).toMatch(/^[A-Za-z0-9_-]{43}\n$/)
    await rotateUrlSigningKeyFile(dataDir, new Date())
    expect(verify(await start(dataDir), url)).toMatchObject({ ok: true })
  })

  it('a malformed key file is a ConfigError naming the file and line, never the secret; rotation leaves it alone', async () => {
    const dataDir = tempDir()
    await start(dataDir)
    const file = join(dataDir, SIGNING_KEY_FILE)
    const leaked = secret()
    for (const [content, message] of [
      [`k2 2026-11-01T00:00:00Z ${leaked}\nk1 - short\n`, `${file} line 2: expected at least 32 bytes`],
      [`k2 yesterday ${leaked}\n`, `${file} line 1: expected the creation time`],
      [`k2 - ${leaked}\nk2 - ${secret()}\n`, `${file} line 2: the kid k2 appears twice`],
      [`bad/kid - ${leaked}\n`, `${file} line 1: expected <kid> <created ISO time or -> <secret>`],
    ] as const) {
      writeFileSync(file, content)
      const error = await start(dataDir).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as Error).message).toContain(message)
      expect((error as Error).message).not.toContain(leaked)
      await expect(rotateUrlSigningKeyFile(dataDir, new Date())).rejects.toThrow(message)
      expect(readFileSync(file, 'utf8')).toBe(content)
    }
  })
})

describe('URL-signing key rotation › keys in the environment', () => {
  it('LITHO_URL_SIGNING_KEY_ID names the signing key and LITHO_URL_VERIFY_KEYS keep older URLs valid', async () => {
    const oldSecret = secret()
    const newSecret = secret()
    const before = await start(tempDir(), { LITHO_URL_SIGNING_KEY: oldSecret })
    const old = sign(before)
    expect(old.get('kid')).toBe('env')
    // Step 1 on every instance: the new key verifies, the old one still signs.
    const staged = await start(tempDir(), { LITHO_URL_SIGNING_KEY: oldSecret, LITHO_URL_VERIFY_KEYS: `k2:${newSecret}` })
    // Step 2: the new key signs, the old one only verifies.
    const after = await start(tempDir(), { LITHO_URL_SIGNING_KEY: newSecret, LITHO_URL_SIGNING_KEY_ID: 'k2', LITHO_URL_VERIFY_KEYS: `env:${oldSecret}` })
    expect(after.describe).toContain('url signing key: LITHO_URL_SIGNING_KEY, kid k2 signs, env only verify')
    const fresh = sign(after)
    expect(fresh.get('kid')).toBe('k2')
    expect(verify(after, old)).toMatchObject({ ok: true })
    expect(verify(staged, fresh)).toMatchObject({ ok: true })
    expect(verify(before, fresh)).toEqual({ ok: false, reason: 'unknown_key' })
    // Step 3, after 7 days: the old key goes.
    expect(verify(await start(tempDir(), { LITHO_URL_SIGNING_KEY: newSecret, LITHO_URL_SIGNING_KEY_ID: 'k2' }), old)).toEqual({ ok: false, reason: 'unknown_key' })
  })

  const hidden = secret()
  it.each([
    ['an entry without a kid', { LITHO_URL_VERIFY_KEYS: hidden }, /^LITHO_URL_VERIFY_KEYS\[0\]: expected <kid>:<secret>/],
    ['a short verify-only key', { LITHO_URL_VERIFY_KEYS: `k2:${hidden.slice(0, 20)}` }, /^LITHO_URL_VERIFY_KEYS\[0\]: expected at least 32 bytes/],
    ['a kid used twice', { LITHO_URL_VERIFY_KEYS: `env:${hidden}` }, /^LITHO_URL_VERIFY_KEYS\[0\]: the kid env is already used/],
    ['a bad LITHO_URL_SIGNING_KEY_ID', { LITHO_URL_SIGNING_KEY_ID: 'a b' }, /^LITHO_URL_SIGNING_KEY_ID: expected 1-32 letters/],
  ])('%s is a ConfigError naming the variable, never the secret', async (_, extra, message) => {
    const error = await start(tempDir(), { LITHO_URL_SIGNING_KEY: secret(), ...extra }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(message)
    expect((error as Error).message).not.toContain(hidden.slice(0, 20))
  })

  it('LITHO_URL_VERIFY_KEYS without LITHO_URL_SIGNING_KEY is refused (it would be ignored)', async () => {
    await expect(start(tempDir(), { LITHO_URL_VERIFY_KEYS: `k2:${secret()}` })).rejects.toThrow(/^LITHO_URL_VERIFY_KEYS: only used with LITHO_URL_SIGNING_KEY/)
  })
})

describe('litho signing-keys rotate (the CLI)', () => {
  const run = (args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('LITHO_')))
      execFile(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...clean, ...env } }, (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }))
    })

  it('rotates the URL key file and prints what it did; tokens need an org first', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first`)
    const dataDir = tempDir()
    const url = sign(await start(dataDir))
    const done = await run(['signing-keys', 'rotate', 'urls', '--data', dataDir])
    expect(done.code, done.stderr).toBe(0)
    const answer = JSON.parse(done.stdout) as { urls: { rotated: boolean; kid: string; verifying: string[] } }
    expect(answer.urls).toMatchObject({ rotated: true, kid: expect.stringMatching(/^k\d{8}T\d{6}$/), verifying: ['k1'] })
    expect(done.stdout).not.toMatch(/[A-Za-z0-9_-]{43}/) // no secret printed
    expect(verify(await start(dataDir), url)).toMatchObject({ ok: true })
    const noOrg = await run(['signing-keys', 'rotate', 'tokens', '--data', dataDir])
    expect([noOrg.code, noOrg.stderr]).toEqual([1, 'litho: no org yet: the first start of litho serve creates it (with its first key)\n'])
  })

  it('rotates the token key of the default org: the JWKS then lists the new kid first and the old one', async () => {
    const dataDir = tempDir()
    const backends = await start(dataDir)
    const server = createAuthorizationServer({ authUrl: 'http://127.0.0.1:3000', resources: ['http://127.0.0.1:3000'], state: backends.authState, accounts: backends.accounts })
    await server.ensureDefaultOrg('acme')
    const kids = async () => {
      const fresh = createAuthorizationServer({ authUrl: 'http://127.0.0.1:3000', resources: ['http://127.0.0.1:3000'], state: backends.authState, accounts: backends.accounts })
      return ((await (await fresh.jwks(new Request('http://127.0.0.1:3000/org/acme/jwks.json'), 'acme')).json()) as { keys: Array<{ kid: string }> }).keys.map((key) => key.kid)
    }
    const [oldKid] = await kids()
    const done = await run(['signing-keys', 'rotate', 'all', '--data', dataDir])
    expect(done.code, done.stderr).toBe(0)
    const { tokens, urls } = JSON.parse(done.stdout) as { tokens: { org: string; kid: string; retiring: Array<{ kid: string }> }; urls: { rotated: boolean } }
    expect(urls.rotated).toBe(true)
    expect(tokens).toMatchObject({ org: 'acme', retiring: [{ kid: oldKid }] })
    expect(await kids()).toEqual([tokens.kid, oldKid])
    const unknown = await run(['signing-keys', 'rotate', 'tokens', '--org', 'nope', '--data', dataDir])
    expect([unknown.code, unknown.stderr]).toEqual([1, 'litho: --org: Expected an existing org but "nope" does not exist\n'])
  })

  it('with LITHO_URL_SIGNING_KEY set it prints a new key to stage, and changes nothing', async () => {
    const dataDir = tempDir()
    const done = await run(['signing-keys', 'rotate', 'urls', '--data', dataDir], { LITHO_URL_SIGNING_KEY: secret() })
    expect(done.code, done.stderr).toBe(0)
    const { urls } = JSON.parse(done.stdout) as { urls: { rotated: boolean; newKey: { kid: string; secret: string }; next: string } }
    expect(urls.rotated).toBe(false)
    expect(urls.newKey.secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(urls.next).toContain(`add ${urls.newKey.kid}:<secret> to LITHO_URL_VERIFY_KEYS`)
    expect(existsSync(join(dataDir, SIGNING_KEY_FILE))).toBe(false)
  })

  it.each([
    [['signing-keys', 'rotate'], /^litho: signing-keys rotate needs one of urls, tokens, all\n/],
    [['signing-keys', 'rotate', 'everything'], /^litho: signing-keys rotate needs one of urls, tokens, all, received "everything"\n/],
    [['signing-keys', 'rotate', 'urls', '--org', 'acme'], /^litho: --org: only for tokens/],
    [['signing-keys', 'renew', 'urls'], /^litho: unknown command "signing-keys renew" \(expected signing-keys rotate\)\n/],
  ])('%j exits 2 with a message', async (args, message) => {
    const done = await run([...args, '--data', tempDir()])
    expect(done.code).toBe(2)
    expect(done.stderr).toMatch(message)
  })
})
