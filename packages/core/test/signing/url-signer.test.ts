import { describe, expect, it } from 'vitest'
import { MAX_SIGNED_URL_SECONDS, canonicalPath, createUrlSigner } from '../../src/index.js'

const A = { id: 'a', secret: 'k9V2mQ7xL4pR8sT1wY6zB3nC5dF0gH2jK7' }
const B = { id: 'b', secret: Buffer.from('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', 'hex') }
const now = new Date('2026-11-23T10:00:00Z')
const inAnHour = new Date('2026-11-23T11:00:00Z')
const PATH = '/files/u_1/r_2.png'

const signer = createUrlSigner({ keys: [A, B] })
const signed = signer.sign({ path: PATH, query: { download: '1' }, expiresAt: inAnHour, now })

describe('signing', () => {
  it('signing › a signed URL verifies until it expires', () => {
    expect(signer.verify({ path: PATH, query: signed, now })).toEqual({ ok: true, expiresAt: new Date(Math.floor(inAnHour.getTime() / 1000) * 1000) })
    expect([...signed.keys()]).toEqual(['download', 'exp', 'kid', 'sig'])
  })

  it('signing › every tampered part is refused', () => {
    const variants: Array<[string, string, URLSearchParams]> = []
    const edit = (label: string, f: (q: URLSearchParams) => void, path = PATH) => {
      const q = new URLSearchParams(signed)
      f(q)
      variants.push([label, path, q])
    }
    edit('path: another file', () => {}, '/files/u_1/r_3.png')
    edit('path: another account', () => {}, '/files/u_2/r_2.png')
    edit('path: trailing slash', () => {}, `${PATH}/`)
    edit('path: traversal', () => {}, '/files/u_1/../u_2/r_2.png')
    edit('path: encoded traversal', () => {}, '/files/u_1/%2e%2e/u_2/r_2.png')
    edit('path: encoded slash', () => {}, '/files/u_1%2Fr_2.png')
    edit('path: double encoding', () => {}, '/files/u_1/r%252e2.png')
    edit('query: changed value', (q) => q.set('download', '0'))
    edit('query: extra parameter', (q) => q.append('size', 'big'))
    edit('query: removed parameter', (q) => q.delete('download'))
    edit('exp: pushed a day later', (q) => q.set('exp', String(Number(q.get('exp')) + 86_400)))
    edit('kid: the other key', (q) => q.set('kid', 'b'))
    edit('kid: unknown key', (q) => q.set('kid', 'z'))
    edit('sig: one bit flipped', (q) => {
      const bytes = Buffer.from(q.get('sig')!, 'base64url')
      bytes[0]! ^= 1
      q.set('sig', bytes.toString('base64url'))
    })
    edit('sig: upper-cased', (q) => q.set('sig', q.get('sig')!.toUpperCase()))
    edit('sig: duplicated', (q) => q.append('sig', q.get('sig')!))
    edit('sig: missing', (q) => q.delete('sig'))
    for (const [label, path, query] of variants) {
      const result = signer.verify({ path, query, now })
      expect(result.ok, label).toBe(false)
    }
    expect(signer.verify({ path: PATH, query: (() => { const q = new URLSearchParams(signed); q.set('kid', 'z'); return q })(), now })).toEqual({ ok: false, reason: 'unknown_key' })
  })

  it('signing › expiry is exact, with the documented leeway', () => {
    const exp = Math.floor(inAnHour.getTime() / 1000) * 1000
    expect(signer.verify({ path: PATH, query: signed, now: new Date(exp - 1000) }).ok).toBe(true)
    expect(signer.verify({ path: PATH, query: signed, now: new Date(exp) }).ok).toBe(true)
    expect(signer.verify({ path: PATH, query: signed, now: new Date(exp + 1) })).toEqual({ ok: false, reason: 'expired' })
    const lenient = createUrlSigner({ keys: [A], leewaySeconds: 30 })
    const q = lenient.sign({ path: PATH, expiresAt: inAnHour, now })
    expect(lenient.verify({ path: PATH, query: q, now: new Date(exp + 30_000) }).ok).toBe(true)
    expect(lenient.verify({ path: PATH, query: q, now: new Date(exp + 30_001) })).toEqual({ ok: false, reason: 'expired' })
  })

  it('signing › lifetimes up to 7 days are signed; longer ones are refused', () => {
    expect(() => signer.sign({ path: PATH, expiresAt: new Date(now.getTime() + MAX_SIGNED_URL_SECONDS * 1000), now })).not.toThrow()
    expect(() => signer.sign({ path: PATH, expiresAt: new Date(now.getTime() + (MAX_SIGNED_URL_SECONDS + 60) * 1000), now })).toThrow(/at most 604800 seconds/)
    expect(() => signer.sign({ path: PATH, expiresAt: now, now })).toThrow(/after now/)
  })

  it('signing › keys rotate: the first key signs, every key verifies, removing one revokes it', () => {
    const rotated = createUrlSigner({ keys: [B, A] })
    expect(rotated.verify({ path: PATH, query: signed, now }).ok).toBe(true)
    expect(rotated.sign({ path: PATH, expiresAt: inAnHour, now }).get('kid')).toBe('b')
    const retired = createUrlSigner({ keys: [B] })
    expect(retired.verify({ path: PATH, query: signed, now })).toEqual({ ok: false, reason: 'unknown_key' })
  })

  it('signing › weak or malformed keys refuse to start', () => {
    expect(() => createUrlSigner({ keys: [] })).toThrow(/at least one signing key/)
    expect(() => createUrlSigner({ keys: [{ id: 'a', secret: 'short' }] })).toThrow(/at least 32 bytes but received 5/)
    expect(() => createUrlSigner({ keys: [{ id: 'a', secret: 'x'.repeat(64) }] })).toThrow(/random/)
    expect(() => createUrlSigner({ keys: [{ id: 'bad id', secret: A.secret }] })).toThrow(/keys\[0\]\.id/)
    expect(() => createUrlSigner({ keys: [A, { ...B, id: 'a' }] })).toThrow(/"a" appears twice/)
    expect(() => createUrlSigner({ keys: [A], leewaySeconds: 61 })).toThrow(/leewaySeconds/)
  })

  it('signing › only canonical paths are signed', () => {
    expect(canonicalPath('/files/u_1/r_2.png')).toBe('/files/u_1/r_2.png')
    for (const bad of ['files/x', '/files//x', '/files/./x', '/files/../x', '/files/%2e%2e/x', '/files/a%2Fb', '/files/a\\b', '/', '/files/x/', '/a b']) expect(canonicalPath(bad), bad).toBeNull()
    expect(() => signer.sign({ path: '/files/../secrets', expiresAt: inAnHour, now })).toThrow(/canonical file path/)
    expect(() => signer.sign({ path: PATH, query: { sig: 'x' }, expiresAt: inAnHour, now })).toThrow(/leave "sig" to the signer/)
  })
})
