import { describe, expect, it } from 'vitest'
import { DEFAULT_SCRYPT_PARAMS, hashPassword, needsRehash, verifyPassword } from '../src/index.js'

// Cheaper parameters keep the suite fast; one case exercises the real defaults.
const FAST = { N: 2 ** 10, r: 8, p: 1 }

describe('passwords', () => {
  it('passwords › a hash verifies its password and nothing else', async () => {
    const stored = await hashPassword('correct horse battery staple', FAST)
    expect(stored).toMatch(/^scrypt\$N=1024,r=8,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true)
    for (const wrong of ['correct horse battery stapl', 'Correct horse battery staple', '', null, undefined, 42]) {
      expect(await verifyPassword(wrong, stored), String(wrong)).toBe(false)
    }
  })

  it('passwords › the hash never contains the password, and salts differ', async () => {
    const a = await hashPassword('hunter2hunter2', FAST)
    const b = await hashPassword('hunter2hunter2', FAST)
    expect(a).not.toBe(b)
    expect(a).not.toContain('hunter2')
    expect(Buffer.from(a.split('$')[3]!, 'base64url').toString('latin1')).not.toContain('hunter2')
  })

  it('passwords › unicode is normalised (NFC), so the same visible password verifies', async () => {
    const stored = await hashPassword('caf\u00e9-secret', FAST)
    expect(await verifyPassword('cafe\u0301-secret', stored)).toBe(true)
  })

  it('passwords › malformed or tampered stored values are false, never an error', async () => {
    const stored = await hashPassword('password-one', FAST)
    const flipped = stored.slice(0, -2) + (stored.endsWith('AA') ? 'BB' : 'AA')
    for (const bad of ['', 'plain', flipped, stored.replace('N=1024', 'N=1048576000'), stored.replace('scrypt$', 'bcrypt$')]) {
      expect(await verifyPassword('password-one', bad), bad.slice(0, 40)).toBe(false)
    }
  })

  it('passwords › empty and oversized passwords are refused when hashing', async () => {
    await expect(hashPassword('', FAST)).rejects.toThrow(/non-empty password/)
    await expect(hashPassword('x'.repeat(1025), FAST)).rejects.toThrow(/at most 1024 bytes/)
  })

  it('passwords › the defaults are OWASP scrypt (N=2^17, r=8, p=1) and old hashes ask for a rehash', async () => {
    expect(DEFAULT_SCRYPT_PARAMS).toEqual({ N: 131072, r: 8, p: 1 })
    const strong = await hashPassword('a long passphrase')
    expect(strong.startsWith('scrypt$N=131072,r=8,p=1$')).toBe(true)
    expect(await verifyPassword('a long passphrase', strong)).toBe(true)
    expect(needsRehash(strong)).toBe(false)
    expect(needsRehash(await hashPassword('a long passphrase', FAST))).toBe(true)
    expect(needsRehash('garbage')).toBe(true)
  })
})
