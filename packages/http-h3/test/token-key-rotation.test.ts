// Rotating the OAuth token-signing key of an org (rotateOrgSigningKey, run by
// `litho signing-keys rotate tokens`): tokens signed before keep working until they expire, new
// tokens carry the new kid, the JWKS publishes both, and the old key retires after the last
// token it signed has expired. Real tokens from the built-in server (code + PKCE flow).
import { rotateOrgSigningKey } from '@litho/auth-adapters'
import { memoryAuthStateStore } from '@litho/storage-adapters/auth-state-store'
import { SignJWT, decodeProtectedHeader, generateKeyPair } from 'jose'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { UserRecord } from '@litho/core/contracts'
import { RENDER_URL, createHarness, type Harness } from './_harness.js'
import { PASSWORD, oauthHelpers } from './_oauth.js'

const state = memoryAuthStateStore()
let h: Harness
let user: UserRecord

beforeAll(async () => {
  h = await createHarness({ withOAuth: { state } })
  user = await h.createUser('pro', PASSWORD)
})

afterEach(() => {
  vi.useRealTimers()
})

const { accessToken, api, fetchApp } = oauthHelpers(() => h)
const kidOf = (token: string) => decodeProtectedHeader(token).kid
const jwksKids = async () => ((await (await fetchApp(`${RENDER_URL}/org/acme/jwks.json`)).json()) as { keys: Array<{ kid: string }> }).keys.map((key) => key.kid)
/** A minute of real time later: instances read the org's keys again (their cache lasts 60 s). */
const aMinuteLater = () => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 })
}

describe('token-signing key rotation', () => {
  it('another instance verifies a token of a key rotated in a moment ago (an unknown kid makes it read the keys again)', async () => {
    // The harness app has the org's keys cached; the rotation happens "elsewhere" (the CLI).
    const warm = await accessToken(user, { scope: 'read' })
    expect((await api('/designs/v2', warm)).status).toBe(200)
    const rotated = await rotateOrgSigningKey(state, { orgId: 'acme', now: h.clock.now() })
    // A second instance on the same state signs with the new key at once (fresh cache).
    const { createAuthorizationServer } = await import('@litho/auth-adapters')
    const other = createAuthorizationServer({ authUrl: RENDER_URL, resources: [RENDER_URL], state, accounts: h.accounts, clock: h.clock })
    const jwks = (await (await other.jwks(new Request(`${RENDER_URL}/org/acme/jwks.json`), 'acme')).json()) as { keys: Array<{ kid: string }> }
    expect(jwks.keys[0]!.kid).toBe(rotated.kid)
    // A token the new key signed: the harness instance has never seen its kid, and accepts it.
    const signer = await forgeWith(state, rotated.kid)
    const token = await signer({ sub: user.id })
    expect((await h.oauth!.verifier.verify(token, { resource: RENDER_URL })).userId).toBe(user.id)
  })

  it('a token signed before the rotation still verifies; new tokens carry the new kid; the JWKS lists both; the old key retires after its last token expired', async () => {
    const before = await accessToken(user, { scope: 'read' })
    const oldKid = kidOf(before)
    const published = await jwksKids()
    expect(published[0]).toBe(oldKid)

    const rotated = await rotateOrgSigningKey(state, { orgId: 'acme', now: h.clock.now() })
    expect(rotated.kid).not.toBe(oldKid)
    expect(rotated.retiring[0]).toEqual({ kid: oldKid, retiresAt: new Date(h.clock.now().getTime() + (3600 + 300) * 1000).toISOString() })
    aMinuteLater()

    expect((await api('/designs/v2', before)).status).toBe(200)
    const after = await accessToken(user, { scope: 'read' })
    expect(kidOf(after)).toBe(rotated.kid)
    expect((await api('/designs/v2', after)).status).toBe(200)
    expect(await jwksKids()).toEqual([rotated.kid, ...published])

    // 1 h 5 min later every token of the old key has expired: it leaves the JWKS and verifies nothing.
    h.clock.advance((3600 + 300) * 1000 + 1000)
    vi.setSystemTime(Date.now() + 61_000)
    expect(await jwksKids()).toEqual([rotated.kid])
    expect((await api('/designs/v2', before)).status).toBe(401)
    // The next rotation removes it from the store.
    const again = await rotateOrgSigningKey(state, { orgId: 'acme', now: h.clock.now() })
    expect(again.removed).toContain(oldKid)
    expect(again.retiring.map((key) => key.kid)).toEqual([rotated.kid])
  })

  it('a token whose kid is unknown is refused, and so is one that names a real kid but was signed by another key', async () => {
    const { privateKey } = await generateKeyPair('ES256')
    const now = Math.floor(h.clock.now().getTime() / 1000)
    const claims = { client_id: 'c', scope: 'read', org: 'acme', sid: 'f' }
    const forged = (kid: string) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid }).setIssuer(`${RENDER_URL}/org/acme`).setAudience(RENDER_URL).setSubject(user.id).setJti('j').setIssuedAt(now).setExpirationTime(now + 600).sign(privateKey)
    for (const token of [await forged('no-such-kid'), await forged((await jwksKids())[0]!)]) {
      const response = await api('/designs/v2', token)
      expect(response.status).toBe(401)
    }
  })
})

/** Signs access tokens with the stored private key `kid` of org acme (as the server would), with a live sign-in family. */
async function forgeWith(store: typeof state, kid: string) {
  const { importJWK } = await import('jose')
  const keys = (await store.get('org.acme.keys')) as Array<{ kid: string; privateJwk: Record<string, unknown> }>
  const key = await importJWK(keys.find((k) => k.kid === kid)!.privateJwk, 'ES256')
  return async ({ sub }: { sub: string }) => {
    const familyId = `fam_${kid}`
    await store.set(`family.${familyId}`, { userId: sub, clientId: 'c', orgId: 'acme', resource: RENDER_URL, scope: 'read', expiresAt: new Date(h.clock.now().getTime() + 86_400_000).toISOString(), revoked: false })
    const now = Math.floor(h.clock.now().getTime() / 1000)
    return new SignJWT({ client_id: 'c', scope: 'read', org: 'acme', sid: familyId })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid })
      .setIssuer(`${RENDER_URL}/org/acme`)
      .setAudience(RENDER_URL)
      .setSubject(sub)
      .setJti(`j_${kid}`)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(key)
  }
}
