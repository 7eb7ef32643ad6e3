// Signed render links, client side and the shared canonical form (docs/signed-render-links.md).
// The worked example of the docs is a test vector here, checked against Web Crypto and Node's
// HMAC, so the page and the code cannot drift apart.
import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { encodeRfc3986, renderLinkStringToSign, signRenderUrl } from '../../src/signing.js'
import { deriveRenderLinkSecret, isRenderLinkSignature, signRenderUrlSync } from '../../src/index.js'

/** The worked example of docs/signed-render-links.md. */
const EXAMPLE = {
  secret: 'lks_DsQ9cXnYtWv4Kp2rHj7mLb3eFg6aZs8uNi5oTy1wQkE',
  keyId: 'key_3Jx9Qm2LpZ7a',
  url: 'https://render.example.com/v1/og-card?title.text=Hello%2C%20world!&format=jpeg&subtitle.text=Caf%C3%A9+%26+co',
  expiresAt: 1798761600,
  stringToSign: '/v1/og-card?exp=1798761600&format=jpeg&kid=key_3Jx9Qm2LpZ7a&subtitle.text=Caf%C3%A9%20%26%20co&title.text=Hello%2C%20world%21',
  sig: 'K5TGX1fu2DzdNKk6F5ptF3Qd6KOxCs48FiUmJkqnDMs',
  signed:
    'https://render.example.com/v1/og-card?exp=1798761600&format=jpeg&kid=key_3Jx9Qm2LpZ7a&subtitle.text=Caf%C3%A9%20%26%20co&title.text=Hello%2C%20world%21&sig=K5TGX1fu2DzdNKk6F5ptF3Qd6KOxCs48FiUmJkqnDMs',
}

describe('signed render links › canonical form', () => {
  it('render links › the worked example of the docs: string to sign, signature and URL', async () => {
    const params = [...new URL(EXAMPLE.url).searchParams, ['exp', '1798761600'], ['kid', EXAMPLE.keyId]] as Array<[string, string]>
    expect(renderLinkStringToSign('og-card', params)).toBe(EXAMPLE.stringToSign)
    expect(createHmac('sha256', EXAMPLE.secret).update(EXAMPLE.stringToSign).digest('base64url')).toBe(EXAMPLE.sig)
    expect(await signRenderUrl({ url: EXAMPLE.url, keyId: EXAMPLE.keyId, secret: EXAMPLE.secret, expiresAt: EXAMPLE.expiresAt })).toBe(EXAMPLE.signed)
    expect(signRenderUrlSync({ url: EXAMPLE.url, keyId: EXAMPLE.keyId, secret: EXAMPLE.secret, expiresAt: new Date(EXAMPLE.expiresAt * 1000) })).toBe(EXAMPLE.signed)
  })

  it('render links › RFC 3986 encoding escapes !\'()* and keeps only unreserved characters', () => {
    expect(encodeRfc3986("a-b_c.d~e !'()*+/&=é")).toBe('a-b_c.d~e%20%21%27%28%29%2A%2B%2F%26%3D%C3%A9')
  })

  it('render links › sorted by encoded name then value; sig left out; repeated names kept', () => {
    expect(renderLinkStringToSign('d', [['b', '2'], ['a', 'z'], ['sig', 'x'], ['a', 'y'], ['B', '1']])).toBe('/v1/d?B=1&a=y&a=z&b=2')
  })

  it('render links › the order and spelling of the query do not change the signature', async () => {
    const options = { keyId: EXAMPLE.keyId, secret: EXAMPLE.secret, expiresAt: EXAMPLE.expiresAt }
    const a = await signRenderUrl({ ...options, url: 'https://r.example/v1/card?x=1+2&y=%C3%A9' })
    const b = await signRenderUrl({ ...options, baseUrl: 'https://r.example', designId: 'card', params: { y: 'é', x: '1 2' } })
    expect(a).toBe(b)
  })

  it('render links › a mount prefix stays in the URL but not in the string to sign', async () => {
    const options = { keyId: EXAMPLE.keyId, secret: EXAMPLE.secret }
    const prefixed = await signRenderUrl({ ...options, url: 'https://example.com/litho/v1/card?t=1' })
    const bare = await signRenderUrl({ ...options, url: 'https://render.example.com/v1/card?t=1' })
    expect(prefixed.startsWith('https://example.com/litho/v1/card?kid=')).toBe(true)
    expect(new URL(prefixed).searchParams.get('sig')).toBe(new URL(bare).searchParams.get('sig'))
  })

  it('render links › a base URL with a query, a fragment or trailing slashes gives one clean path', async () => {
    const url = await signRenderUrl({ baseUrl: 'https://r.example/litho//?x=1#top', designId: 'card', keyId: 'key_1', secret: EXAMPLE.secret })
    expect(url.startsWith('https://r.example/litho/v1/card?kid=key_1&sig=')).toBe(true)
  })

  it('render links › without expiresAt the link has no exp', async () => {
    const url = new URL(await signRenderUrl({ baseUrl: 'https://r.example/', designId: 'card', keyId: 'key_1', secret: EXAMPLE.secret }))
    expect([...url.searchParams.keys()]).toEqual(['kid', 'sig'])
    expect(isRenderLinkSignature(EXAMPLE.secret, '/v1/card?kid=key_1', url.searchParams.get('sig')!)).toBe(true)
  })
})

describe('signed render links › misuse', () => {
  const ok = { baseUrl: 'https://r.example', designId: 'card', keyId: 'key_1', secret: EXAMPLE.secret }
  it.each([
    ['a parameter named exp', { ...ok, params: { exp: '1' } }, /leave "exp" to the signer/],
    ['a parameter named sig', { ...ok, params: { sig: 'x' } }, /leave "sig" to the signer/],
    ['a render key in the parameters', { ...ok, params: { key: 'lk_x' } }, /no render key in a signed link/],
    ['a key id with a slash', { ...ok, keyId: 'key/1' }, /keyId/],
    ['a short secret', { ...ok, secret: 'short' }, /at least 32 characters/],
    ['a URL not ending in /v1/<design id>', { keyId: 'key_1', secret: EXAMPLE.secret, url: 'https://r.example/v2/card' }, /end in \/v1\/<design id>/],
    ['a URL that is not http(s)', { keyId: 'key_1', secret: EXAMPLE.secret, url: 'ftp://r.example/v1/card' }, /http\(s\) render URL/],
    ['a fractional expiresAt', { ...ok, expiresAt: 1.5 }, /expiresAt/],
    ['an invalid Date', { ...ok, expiresAt: new Date(Number.NaN) }, /expiresAt/],
  ])('render links › signRenderUrl refuses %s with ERR_INVALID_ARG_VALUE', async (_name, options, message) => {
    await expect(signRenderUrl(options as never)).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_VALUE', message: expect.stringMatching(message) })
  })

  it('render links › a short secret is refused without echoing it', async () => {
    const error = await signRenderUrl({ ...ok, secret: 'hunter2-hunter2' }).catch((e: Error) => e)
    expect(String((error as Error).message)).not.toContain('hunter2')
  })
})

describe('signed render links › link secrets', () => {
  const masterKey = 'm4sterKey-0123456789abcdefghijklmnopqrstuvwxyz'
  it('render links › a link secret is HKDF of the master key, the salt and the key id: stable, and different when any changes', () => {
    const one = deriveRenderLinkSecret({ masterKey, salt: 'q3Jx9Qm2LpZ7aB4cD5eF6g', keyId: 'key_1' })
    expect(one).toMatch(/^lks_[A-Za-z0-9_-]{43}$/)
    expect(deriveRenderLinkSecret({ masterKey, salt: 'q3Jx9Qm2LpZ7aB4cD5eF6g', keyId: 'key_1' })).toBe(one)
    expect(deriveRenderLinkSecret({ masterKey, salt: 'Zz0_-Yy1Xx2Ww3Vv4Uu5Tt', keyId: 'key_1' })).not.toBe(one)
    expect(deriveRenderLinkSecret({ masterKey, salt: 'q3Jx9Qm2LpZ7aB4cD5eF6g', keyId: 'key_2' })).not.toBe(one)
    expect(deriveRenderLinkSecret({ masterKey: `${masterKey}!`, salt: 'q3Jx9Qm2LpZ7aB4cD5eF6g', keyId: 'key_1' })).not.toBe(one)
  })

  it('render links › only the canonical spelling of a signature verifies (the ignored bits of its last character are not free)', () => {
    expect(isRenderLinkSignature(EXAMPLE.secret, EXAMPLE.stringToSign, EXAMPLE.sig)).toBe(true)
    // 's' (44) and 't' (45) differ only in the 2 low bits a base64url decoder drops here.
    const other = `${EXAMPLE.sig.slice(0, 42)}t`
    expect(Buffer.from(other, 'base64url')).toEqual(Buffer.from(EXAMPLE.sig, 'base64url'))
    expect(isRenderLinkSignature(EXAMPLE.secret, EXAMPLE.stringToSign, other)).toBe(false)
  })

  it('render links › a short or repetitive master key is refused', () => {
    expect(() => deriveRenderLinkSecret({ masterKey: 'short', salt: 'q3Jx9Qm2LpZ7aB4cD5eF6g', keyId: 'k' })).toThrow(/at least 32 bytes/)
    expect(() => deriveRenderLinkSecret({ masterKey: 'a'.repeat(64), salt: 'q3Jx9Qm2LpZ7aB4cD5eF6g', keyId: 'k' })).toThrow(/random/)
  })
})

describe('signed render links › the light entry', () => {
  it('render links › the signing entry and the signer import nothing but each other (no zod, no Node built-ins)', () => {
    for (const file of ['../../src/signing.ts', '../../src/signing/render-link.ts', '../../src/contracts/signing.ts']) {
      const source = readFileSync(new URL(file, import.meta.url), 'utf8')
      const specifiers = [...source.matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)].map((match) => match[1])
      expect(specifiers.filter((specifier) => !specifier!.startsWith('./')), file).toEqual([])
    }
  })
})
