// `litho keys sign-url` (offline) and `litho keys link-secret` (docs/cli.md, docs/signed-render-links.md):
// the URL they print is one the server accepts, rotation invalidates it, and bad input is a usage error.
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { verifyRenderLink } from '@litho/core'
import { describe, expect, it } from 'vitest'
import { CommandError, UsageError, createBackends, keysCreateCommand, keysLinkSecretCommand, keysSignUrlCommand, parseExpires, usersCreateCommand, type AdminCommandIo } from '../src/index.js'
import { SMALL_DESIGN } from './_harness.js'
import { CHILD_ENV, CLI, processFixture } from './_process.js'

const NOW = new Date('2026-11-26T12:00:00Z')
const io = (over: Partial<AdminCommandIo> = {}): AdminCommandIo & { out: string[] } => {
  const out: string[] = []
  return { out, writeStdout: (text) => void out.push(text), writeStderr: () => {}, env: {}, now: () => NOW, ...over }
}
const json = (streams: { out: string[] }) => JSON.parse(streams.out.join('')) as Record<string, string | null>
const SECRET = 'lks_DsQ9cXnYtWv4Kp2rHj7mLb3eFg6aZs8uNi5oTy1wQkE'

describe('litho keys sign-url', () => {
  it('cli › signs the worked example of the docs, offline, exactly', async () => {
    const streams = io()
    const url = 'https://render.example.com/v1/og-card?title.text=Hello%2C%20world!&format=jpeg&subtitle.text=Caf%C3%A9+%26+co'
    expect(await keysSignUrlCommand([url, '--kid', 'key_3Jx9Qm2LpZ7a', '--secret', SECRET, '--expires', '2027-01-01T00:00:00Z'], streams)).toBe(0)
    expect(json(streams)).toEqual({
      url: 'https://render.example.com/v1/og-card?exp=1798761600&format=jpeg&kid=key_3Jx9Qm2LpZ7a&subtitle.text=Caf%C3%A9%20%26%20co&title.text=Hello%2C%20world%21&sig=K5TGX1fu2DzdNKk6F5ptF3Qd6KOxCs48FiUmJkqnDMs',
      expiresAt: '2027-01-01T00:00:00.000Z',
    })
  })

  it('cli › a design code with --base and --param, the secret from LITHO_LINK_SECRET, 7 days by default', async () => {
    const streams = io({ env: { LITHO_LINK_SECRET: SECRET } })
    await keysSignUrlCommand(['og-card', '--kid', 'key_1', '--base', 'https://r.example/litho', '--param', 'title.text=a=b', '--param', 'format=png'], streams)
    const { url, expiresAt } = json(streams)
    expect(expiresAt).toBe('2026-12-03T12:00:00.000Z')
    expect(url).toMatch(/^https:\/\/r\.example\/litho\/v1\/og-card\?exp=1796299200&format=png&kid=key_1&title\.text=a%3Db&sig=[A-Za-z0-9_-]{43}$/)
  })

  it('cli › --expires never signs a link without exp', async () => {
    const streams = io()
    await keysSignUrlCommand(['card', '--kid', 'key_1', '--secret', SECRET, '--base', 'https://r.example', '--expires', 'never'], streams)
    expect(json(streams).expiresAt).toBeNull()
    expect(new URL(json(streams).url!).searchParams.has('exp')).toBe(false)
  })

  it.each([
    ['no target', ['--kid', 'k', '--secret', SECRET], 'keys sign-url needs a render URL or a design code'],
    ['no --kid', ['card', '--secret', SECRET, '--base', 'https://r.example'], 'keys sign-url needs --kid'],
    ['no secret', ['card', '--kid', 'k', '--base', 'https://r.example'], 'needs the link secret: --secret or LITHO_LINK_SECRET'],
    ['a design code without a base', ['card', '--kid', 'k', '--secret', SECRET], 'a design code needs --base'],
    ['--base beside a URL', ['https://r.example/v1/card', '--kid', 'k', '--secret', SECRET, '--base', 'https://x.example'], '--base: only with a design code'],
    ['a --param without =', ['card', '--kid', 'k', '--secret', SECRET, '--base', 'https://r.example', '--param', 'title.text'], '--param: expected NAME=VALUE'],
    ['a --param named sig', ['card', '--kid', 'k', '--secret', SECRET, '--base', 'https://r.example', '--param', 'sig=x'], '--param: expected the parameters to leave "sig" to the signer'],
    ['a short secret', ['card', '--kid', 'k', '--secret', 'short', '--base', 'https://r.example'], '--secret: expected the link secret'],
    ['a bad --kid', ['card', '--kid', 'a/b', '--secret', SECRET, '--base', 'https://r.example'], '--kid: expected the key id'],
    ['a past --expires', ['card', '--kid', 'k', '--secret', SECRET, '--base', 'https://r.example', '--expires', '2020-01-01'], '--expires: expected a time after now'],
  ])('cli › sign-url with %s is a usage error', async (_name, args, message) => {
    const streams = io()
    const call = keysSignUrlCommand(args, streams)
    await expect(call).rejects.toThrow(UsageError)
    await expect(call).rejects.toThrow(message)
    expect(streams.out).toEqual([])
  })

  it.each([
    ['30m', '2026-11-26T12:30:00.000Z'],
    ['12h', '2026-11-27T00:00:00.000Z'],
    ['3600s', '2026-11-26T13:00:00.000Z'],
    ['2027-01-01', '2027-01-01T00:00:00.000Z'],
  ])('cli › --expires %s is %s', (value, iso) => {
    expect(parseExpires(value, NOW)?.toISOString()).toBe(iso)
  })

  it('cli › --expires refuses what is not a lifetime, a date or never', () => {
    expect(() => parseExpires('soon', NOW)).toThrow('--expires: expected a lifetime like 30m, 12h or 7d, an ISO date, or never; received "soon"')
  })

  it('cli › the real binary signs offline with no data directory, and litho keys --help lists sign-url', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...CHILD_ENV, LITHO_LINK_SECRET: SECRET } }, (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })),
      )
    const signed = await run(['keys', 'sign-url', 'https://r.example/v1/card', '--kid', 'key_1', '--expires', '1h'])
    expect(signed.code, signed.stderr).toBe(0)
    expect(JSON.parse(signed.stdout).url).toMatch(/^https:\/\/r\.example\/v1\/card\?exp=\d+&kid=key_1&sig=/)
    const help = await run(['keys', '--help'])
    expect(help.stdout).toMatch(/sign-url/)
    expect(help.stdout).toMatch(/link-secret/)
  })
})

describe('litho keys create and link-secret', () => {
  it('cli › keys create prints a link secret; links signed with it check out until keys link-secret replaces it', async () => {
    const data = mkdtempSync(join(tmpdir(), 'litho-cli-links-'))
    const at = (args: string[]) => [...args, '--data', data]
    await usersCreateCommand(at(['--email', 'ann@example.com', '--password', 'correct horse battery staple']), io())
    const created = io()
    await keysCreateCommand(at(['--email', 'ann@example.com']), created)
    const { id, linkSecret } = json(created) as { id: string; linkSecret: string }
    expect(linkSecret).toMatch(/^lks_[A-Za-z0-9_-]{43}$/)

    const sign = async (secret: string) => {
      const streams = io()
      await keysSignUrlCommand(['card', '--kid', id, '--secret', secret, '--base', 'https://r.example', '--param', 'format=png'], streams)
      return new URL(json(streams).url!)
    }
    const backends = await createBackends({ dataDir: data, filesBaseUrl: 'http://127.0.0.1/files', env: {} })
    try {
      const check = (url: URL) => verifyRenderLink({ accounts: backends.accounts, renderLinks: backends.renderLinks, clock: { now: () => NOW } }, { designId: 'card', query: url.searchParams, hasKeyHeader: false })
      const before = await sign(linkSecret)
      await expect(check(before)).resolves.toMatchObject({ key: { id } })

      const rotated = io()
      await keysLinkSecretCommand(at(['--email', 'ann@example.com', '--id', id]), rotated)
      const next = json(rotated) as { id: string; linkSecret: string }
      expect(next).toEqual({ id, linkSecret: expect.stringMatching(/^lks_/) })
      expect(next.linkSecret).not.toBe(linkSecret)
      await expect(check(before)).rejects.toMatchObject({ details: { reason: 'bad_signature' } })
      await expect(check(await sign(next.linkSecret))).resolves.toMatchObject({ key: { id } })
    } finally {
      await backends.dispose()
    }
    await expect(keysLinkSecretCommand(at(['--email', 'ann@example.com', '--id', 'key_nope']), io())).rejects.toThrow(CommandError)
    await expect(keysLinkSecretCommand(at(['--email', 'ann@example.com']), io())).rejects.toThrow('keys link-secret needs --id')
  })
})

describe('litho serve with signed render links (processes)', () => {
  it('cli › a link signed offline by keys sign-url renders on litho serve without a key, and stops after keys link-secret', async () => {
    const fixture = processFixture('litho-links-serve-')
    try {
      await fixture.litho('users', 'create', '--email', 'ann@example.com', '--password', 'correct horse battery staple', '--plan', 'pro')
      const { id, linkSecret } = await fixture.litho('keys', 'create', '--email', 'ann@example.com')
      const file = join(fixture.data, 'small.json')
      writeFileSync(file, JSON.stringify(SMALL_DESIGN))
      const { renderCode } = await fixture.litho('designs', 'import', '--email', 'ann@example.com', file, '--publish')
      const server = fixture.serve()
      const base = await server.ready
      const signed = io({ env: { LITHO_LINK_SECRET: linkSecret! } })
      await keysSignUrlCommand([renderCode!, '--kid', id!, '--base', base, '--param', 'format=png', '--expires', '1h'], { ...signed, now: () => new Date() })
      const url = json(signed).url!
      const response = await fetch(url)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/png')
      const maxAge = Number(/^public, max-age=(\d+), immutable$/.exec(response.headers.get('cache-control') ?? '')?.[1])
      expect(maxAge > 0 && maxAge <= 3600, `max-age ${maxAge}: until exp, at most an hour`).toBe(true)
      await fixture.litho('keys', 'link-secret', '--email', 'ann@example.com', '--id', id!)
      const refused = await fetch(url)
      expect(refused.status).toBe(403)
      expect(await refused.json()).toMatchObject({ code: 'ERR_BAD_SIGNATURE', reason: 'bad_signature' })
    } finally {
      fixture.cleanup()
    }
  })
})
