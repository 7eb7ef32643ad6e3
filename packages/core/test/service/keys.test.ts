import { memoryAccountStore } from '@litho/storage-adapters/account-store'
import { describe, expect, it } from 'vitest'
import { memoryMeter } from '@litho/storage-adapters/memory'
import type { AccountStore, Meter } from '../../src/contracts/index.js'
import {
  ApiKeyListSchema,
  CreateKeyBodySchema,
  CreatedApiKeySchema,
  DEFAULT_KEY_NAME,
  ListKeysParamsSchema,
  MAX_API_KEYS,
  createApiKey,
  listApiKeys,
  parseCreateKeyBody,
  parseListKeysParams,
  revokeApiKey,
  type GeneratedKey,
} from '../../src/index.js'
import { fakeKey, rejection } from './helpers.js'

const alice = { id: 'u_alice' }
const bob = { id: 'u_bob' }

/** A clock that moves one second per call, so keys have distinct createdAt. */
function steppingClock(start = Date.UTC(2026, 10, 23, 10)) {
  let t = start
  return { now: () => new Date((t += 1000)) }
}

function setup(): { accounts: AccountStore; meter: Meter; clock: ReturnType<typeof steppingClock>; generated: GeneratedKey[]; newKey: () => GeneratedKey } {
  const generated: GeneratedKey[] = []
  return {
    accounts: memoryAccountStore(),
    meter: memoryMeter(),
    clock: steppingClock(),
    generated,
    newKey: () => {
      const key = fakeKey()
      generated.push(key)
      return key
    },
  }
}

describe('parseListKeysParams', () => {
  it('keys › $page defaults to 1 and $limit to 10', () => {
    expect(parseListKeysParams(new URLSearchParams())).toEqual({ page: 1, limit: 10 })
    expect(parseListKeysParams(new URLSearchParams('$limit=100&$page=3'))).toEqual({ page: 3, limit: 100 })
  })

  it('keys › $page=0 names $page', () => {
    expect(() => parseListKeysParams(new URLSearchParams('$page=0'))).toThrow(/\$page: expected a whole number ≥ 1, received 0/)
  })

  it.each([
    ['$limit=0', 'expected a whole number from 1 to 100, received 0'],
    ['$limit=101', 'expected a whole number from 1 to 100, received 101'],
    ['$limit=1.5', 'expected a whole number from 1 to 100, received 1.5'],
    ['$limit=x', 'expected a whole number from 1 to 100, received "x"'],
  ])('keys › %s names $limit', async (query, message) => {
    const error = await rejection(() => parseListKeysParams(new URLSearchParams(query)))
    expect(error.code).toBe('ERR_INVALID_REQUEST')
    expect(error.issues).toEqual([{ path: '$limit', message }])
  })

  it('keys › the schema documents $limit', () => {
    const json = ListKeysParamsSchema.toJSONSchema({ io: 'input' }) as { properties: Record<string, Record<string, unknown>> }
    expect(json.properties.$limit).toMatchObject({ default: 10, minimum: 1, maximum: 100 })
  })
})

describe('parseCreateKeyBody', () => {
  it('keys › name is trimmed; absent name or body gives the default', () => {
    expect(parseCreateKeyBody({ name: '  CI  ' })).toEqual({ name: 'CI' })
    expect(parseCreateKeyBody({})).toEqual({ name: DEFAULT_KEY_NAME })
    expect(parseCreateKeyBody(undefined)).toEqual({ name: DEFAULT_KEY_NAME })
    expect(parseCreateKeyBody(null)).toEqual({ name: DEFAULT_KEY_NAME })
    expect(parseCreateKeyBody({ name: 'x'.repeat(100), other: 1 })).toEqual({ name: 'x'.repeat(100) })
    expect(DEFAULT_KEY_NAME).toBe('API key')
  })

  it.each<[unknown, string, string]>([
    [{ name: '' }, 'name', 'expected a name of 1 to 100 characters, received ""'],
    [{ name: '   ' }, 'name', 'expected a name of 1 to 100 characters, received ""'],
    [{ name: 'x'.repeat(101) }, 'name', 'expected a name of 1 to 100 characters, received "'],
    [{ name: 42 }, 'name', 'expected a name of 1 to 100 characters, received 42'],
    [{ name: 'a\nb' }, 'name', 'without control characters'],
    ['CI', '', 'expected a JSON object, received "CI"'],
    [['CI'], '', 'expected a JSON object, received an array'],
  ])('keys › body %j is ERR_INVALID_REQUEST at %j', async (body, path, message) => {
    const error = await rejection(() => parseCreateKeyBody(body))
    expect(error.code).toBe('ERR_INVALID_REQUEST')
    expect(error.issues[0]?.path).toBe(path)
    expect(error.issues[0]?.message).toContain(message)
  })

  it('keys › the schema documents name and its default', () => {
    const json = CreateKeyBodySchema.toJSONSchema({ io: 'input' }) as { properties: Record<string, Record<string, unknown>> }
    expect(json.properties.name).toMatchObject({ type: 'string', default: 'API key', maxLength: 100 })
  })
})

describe('createApiKey', () => {
  it('keys › stores an active key with hash and prefix, returns the secret once', async () => {
    const { accounts, meter, clock, generated, newKey } = setup()
    const created = await createApiKey({ accounts, meter, clock }, { account: alice, name: ' CI ', newKey })
    const [key] = generated
    expect(CreatedApiKeySchema.parse(created)).toEqual(created)
    expect(created).toEqual({ success: true, key: key!.secret, _id: key!.id, name: 'CI', active: true, prefix: key!.displayPrefix, createdAt: '2026-11-23T10:00:01.000Z' })
    expect(JSON.stringify(created)).not.toContain(key!.hash)
    expect(await accounts.getKey(key!.id)).toEqual({ id: key!.id, userId: 'u_alice', name: 'CI', hash: key!.hash, prefix: key!.displayPrefix, active: true, createdAt: '2026-11-23T10:00:01.000Z', lastUsedAt: null })
    expect(await accounts.findKeyByHash(key!.hash)).toMatchObject({ id: key!.id, active: true })
  })

  it('keys › no name gives the default name; a bad name creates nothing', async () => {
    const { accounts, meter, clock, generated, newKey } = setup()
    expect((await createApiKey({ accounts, meter, clock }, { account: alice, newKey })).name).toBe('API key')
    const error = await rejection(createApiKey({ accounts, meter, clock }, { account: alice, name: '', newKey }))
    expect(error.issues[0]?.path).toBe('name')
    expect(generated).toHaveLength(1)
    expect(await accounts.listKeys('u_alice', { limit: 100 })).toHaveLength(1)
  })

  it(`keys › an account holds at most ${MAX_API_KEYS} keys`, async () => {
    const { accounts, meter, clock, newKey } = setup()
    for (let i = 0; i < MAX_API_KEYS; i++) await createApiKey({ accounts, meter, clock }, { account: alice, name: `k${i}`, newKey })
    const error = await rejection(createApiKey({ accounts, meter, clock }, { account: alice, name: 'one more', newKey }))
    expect(error.code).toBe('ERR_INVALID_REQUEST')
    expect(error.message).toContain('revoke one')
    // Another account is unaffected.
    expect((await createApiKey({ accounts, meter, clock }, { account: bob, newKey })).success).toBe(true)
  })
})

describe('listApiKeys', () => {
  it('keys › lists own keys newest first, up to limit, never the secret or the hash', async () => {
    const { accounts, meter, clock, generated, newKey } = setup()
    for (const name of ['first', 'second', 'third']) await createApiKey({ accounts, meter, clock }, { account: alice, name, newKey })
    await createApiKey({ accounts, meter, clock }, { account: bob, name: 'bobs', newKey })
    await accounts.markKeyUsed(generated[0]!.id, '2026-11-24T00:00:00.000Z')

    const list = await listApiKeys({ accounts, meter }, { account: alice, limit: 10 })
    expect(ApiKeyListSchema.parse(list)).toEqual(list)
    expect(list.limit).toBe(10)
    expect(list.docs.map((k) => k.name)).toEqual(['third', 'second', 'first'])
    expect(list.docs[2]).toEqual({ _id: generated[0]!.id, name: 'first', active: true, prefix: generated[0]!.displayPrefix, createdAt: '2026-11-23T10:00:01.000Z', lastUsedAt: '2026-11-24T00:00:00.000Z' })
    for (const doc of list.docs) expect(Object.keys(doc).sort()).toEqual(['_id', 'active', 'createdAt', 'lastUsedAt', 'name', 'prefix'])
    const text = JSON.stringify(list)
    for (const key of generated) {
      expect(text).not.toContain(key.secret)
      expect(text).not.toContain(key.hash)
    }
    expect((await listApiKeys({ accounts, meter }, { account: alice, limit: 2 })).docs.map((k) => k.name)).toEqual(['third', 'second'])
  })

  it('keys › a bad limit from a direct caller names $limit', async () => {
    const error = await rejection(listApiKeys({ accounts: memoryAccountStore(), meter: memoryMeter() }, { account: alice, limit: 0 }))
    expect(error.issues[0]?.path).toBe('$limit')
  })
})

describe('revokeApiKey', () => {
  it('keys › deletes the key: no longer listed, no longer authenticates', async () => {
    const { accounts, meter, clock, generated, newKey } = setup()
    await createApiKey({ accounts, meter, clock }, { account: alice, name: 'a', newKey })
    await createApiKey({ accounts, meter, clock }, { account: alice, name: 'b', newKey })
    const [a, b] = generated
    expect(await revokeApiKey({ accounts, meter }, { account: alice, id: a!.id })).toEqual({ success: true, _id: a!.id })
    expect(await accounts.getKey(a!.id)).toBeNull()
    expect(await accounts.findKeyByHash(a!.hash)).toBeNull()
    expect((await listApiKeys({ accounts, meter }, { account: alice, limit: 10 })).docs.map((k) => k._id)).toEqual([b!.id])
    // A second revoke finds nothing.
    expect((await rejection(revokeApiKey({ accounts, meter }, { account: alice, id: a!.id }))).code).toBe('ERR_KEY_NOT_FOUND')
  })

  it("keys › another account's key is ERR_KEY_NOT_FOUND and stays intact", async () => {
    const { accounts, meter, clock, generated, newKey } = setup()
    await createApiKey({ accounts, meter, clock }, { account: bob, name: 'bobs', newKey })
    const bobs = generated[0]!
    const error = await rejection(revokeApiKey({ accounts, meter }, { account: alice, id: bobs.id }))
    const unknown = await rejection(revokeApiKey({ accounts, meter }, { account: alice, id: 'key_unknown' }))
    expect(error.code).toBe('ERR_KEY_NOT_FOUND')
    expect(error.message.replace(bobs.id, 'ID')).toBe(unknown.message.replace('key_unknown', 'ID'))
    expect(JSON.stringify(error.toJSON())).not.toContain('bobs')
    expect(await accounts.getKey(bobs.id)).toMatchObject({ userId: 'u_bob', active: true })
  })

  it.each(['', '../x', 'x'.repeat(65), 'key id'])('keys › id %j outside the alphabet is ERR_KEY_NOT_FOUND', async (id) => {
    expect((await rejection(revokeApiKey({ accounts: memoryAccountStore(), meter: memoryMeter() }, { account: alice, id }))).code).toBe('ERR_KEY_NOT_FOUND')
  })
})
