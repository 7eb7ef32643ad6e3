import { describe, expect, it } from 'vitest'
import { createRenderKey, displayPrefix, hashRenderKey, isRenderKey, verifyRenderKey } from '../src/index.js'

describe('render keys', () => {
  it('keys › a new key has a recognisable secret of 192 random bits, an id, a hash and a display prefix', () => {
    const key = createRenderKey()
    expect(key.secret).toMatch(/^lk_[A-Za-z0-9_-]{32}$/)
    expect(Buffer.from(key.secret.slice(3), 'base64url')).toHaveLength(24)
    expect(key.id).toMatch(/^key_[A-Za-z0-9_-]{12}$/)
    expect(key.hash).toBe(hashRenderKey(key.secret))
    expect(key.hash).toMatch(/^sha256:[A-Za-z0-9_-]{43}$/)
    expect(key.displayPrefix).toBe(`${key.secret.slice(0, 9)}…`)
  })

  it('keys › the stored forms never contain the secret', () => {
    const key = createRenderKey()
    const stored = JSON.stringify({ id: key.id, hash: key.hash, prefix: key.displayPrefix })
    expect(stored).not.toContain(key.secret)
    expect(stored).not.toContain(key.secret.slice(9))
  })

  it('keys › 1000 keys are all different', () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => createRenderKey().secret))
    expect(secrets.size).toBe(1000)
  })

  it('keys › verification accepts the key and refuses every other value', () => {
    const key = createRenderKey()
    expect(verifyRenderKey(key.secret, key.hash)).toBe(true)
    const other = createRenderKey()
    const flipped = key.secret.slice(0, -1) + (key.secret.endsWith('A') ? 'B' : 'A')
    for (const wrong of [other.secret, flipped, key.secret.toUpperCase(), `${key.secret} `, key.secret.slice(0, -1), '', null, undefined, 42, key.hash]) {
      expect(verifyRenderKey(wrong, key.hash), String(wrong)).toBe(false)
    }
    expect(verifyRenderKey(key.secret, 'sha256:short')).toBe(false)
    expect(verifyRenderKey(key.secret, other.hash)).toBe(false)
  })

  it('keys › only render keys are hashed', () => {
    expect(isRenderKey('lk_abc')).toBe(false)
    expect(() => hashRenderKey('not-a-key')).toThrow(/Expected a render key/)
    expect(displayPrefix('lk_ABCDEFGHIJ')).toBe('lk_ABCDEF…')
  })
})
