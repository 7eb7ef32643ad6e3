// The file store on each backend it ships a factory for.
// - Redis: the real Redis at REDIS_URL (default redis://127.0.0.1:6379), never skipped; keys
//   live under a base unique to the run and are deleted at the end.
// - S3: an s3rver this file starts on 127.0.0.1 (random port, temporary directory), closed at
//   the end. s3rver checks SigV4 signatures and presigned expiry but NOT object ACLs: an
//   unsigned GET of a private object succeeds there, so ACLs are checked on the request sent.
// The suite is imported by relative path until the `@litho/testing/file-store` alias exists.
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createUrlSigner } from '@litho/core'
import type { FileStore } from '@litho/core/contracts'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { everyByte, runFileStoreConformance } from '@litho/testing/file-store'
import { createStorage } from 'unstorage'
import fsDriver from 'unstorage/drivers/fs'
import memoryDriver from 'unstorage/drivers/memory'
import { fsFileStore, memoryFileStore, redisFileStore, s3FileStore, unstorageFileStore, verifyFileRequest } from '../src/file-store.js'
import { REDIS_URL, setupRedis, setupTempDir } from './_backends.js'

const { admin, base: redisBase } = setupRedis()
const root = setupTempDir('litho-fs-files-')
const s3Dir = setupTempDir('litho-s3rver-')
const BUCKET = 'litho-test'
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
const PUBLIC_BASE = 'https://render.example.com/files'
const signer = createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] })

let s3rver: S3rver | undefined
let endpoint = ''

beforeAll(async () => {
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET }] })
  const { port } = await s3rver.run()
  endpoint = `http://127.0.0.1:${port}`
})

afterAll(async () => {
  await s3rver?.close()
})

/** What the HTTP app does with a request for `<PUBLIC_BASE>/<key>?…`: verify, then get. */
function appFetch(store: () => FileStore | undefined) {
  return async (url: string): Promise<{ status: number; bytes: Uint8Array }> => {
    if (!url.startsWith(`${PUBLIC_BASE}/`)) return { status: 404, bytes: new Uint8Array(0) }
    const rest = url.slice(PUBLIC_BASE.length + 1)
    const mark = rest.indexOf('?')
    const key = mark === -1 ? rest : rest.slice(0, mark)
    const query = mark === -1 ? '' : rest.slice(mark + 1)
    const verdict = verifyFileRequest(signer, { key, query, now: new Date() })
    if (!verdict.ok) return { status: 403, bytes: new Uint8Array(0) }
    const found = await store()!.get(key)
    return found === null ? { status: 404, bytes: new Uint8Array(0) } : { status: 200, bytes: found.bytes }
  }
}

async function httpFetch(url: string): Promise<{ status: number; bytes: Uint8Array }> {
  const response = await fetch(url)
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) }
}

const s3 = (overrides: Partial<Parameters<typeof s3FileStore>[0]> = {}) => s3FileStore({ endpoint, bucket: BUCKET, region: 'us-east-1', ...CREDENTIALS, ...overrides })

let memory: FileStore | undefined
runFileStoreConformance({ name: 'memory', create: () => (memory = memoryFileStore({ publicBaseUrl: PUBLIC_BASE, signer })), fetchUrl: appFetch(() => memory) })
let fsStore: FileStore | undefined
runFileStoreConformance({ name: 'fs', create: () => (fsStore = fsFileStore({ dir: join(root, 'suite'), publicBaseUrl: PUBLIC_BASE, signer })), fetchUrl: appFetch(() => fsStore) })
let redisStore: FileStore | undefined
runFileStoreConformance({
  name: 'redis',
  create: () => (redisStore = redisFileStore({ url: REDIS_URL, base: `${redisBase}:suite`, publicBaseUrl: PUBLIC_BASE, signer })),
  fetchUrl: appFetch(() => redisStore),
})
// unstorageFileStore over a storage the caller made: every create() of a run shares it (the persistence case).
const unstorageMemory = createStorage({ driver: memoryDriver() })
let onMemoryDriver: FileStore | undefined
runFileStoreConformance({ name: 'unstorage (memory driver)', create: () => (onMemoryDriver = unstorageFileStore({ storage: unstorageMemory, publicBaseUrl: PUBLIC_BASE, signer })), fetchUrl: appFetch(() => onMemoryDriver) })
const unstorageFs = createStorage({ driver: fsDriver({ base: join(root, 'unstorage-fs') }) })
let onFsDriver: FileStore | undefined
runFileStoreConformance({
  name: 'unstorage (fs driver)',
  create: () => (onFsDriver = unstorageFileStore({ storage: unstorageFs, persistent: true, publicBaseUrl: PUBLIC_BASE, signer })),
  fetchUrl: appFetch(() => onFsDriver),
})
runFileStoreConformance({
  name: 's3 (s3rver)',
  create: () => s3(),
  fetchUrl: httpFetch,
  skip: {
    // s3rver 3.7.1 checks the access key id and the expiry of SigV4 requests but not the
    // signature ("Signature version 4 calculation is unimplemented"), and serves any object
    // unsigned: an edited URL is served. The signature is checked independently below.
    'file store › a signed URL edited to reach another existing file is refused': 's3rver does not verify SigV4 signatures (see s3 › presigned URL signature test)',
  },
})

describe('app-served file stores', () => {
  it('unstorage › keeps the layout of the other app-served stores, leaves the storage open on dispose, and refuses a missing storage', async () => {
    const storage = createStorage({ driver: memoryDriver() })
    const store = unstorageFileStore({ storage, base: 'app:renders', publicBaseUrl: PUBLIC_BASE, signer })
    expect(store.capabilities).toMatchObject({ persistent: false, presigned: false })
    await store.put('a/b.png', everyByte(), { contentType: 'image/png', visibility: 'public' })
    const keys = (await storage.getKeys('app:renders')).sort()
    expect(keys).toHaveLength(2)
    expect(keys[0]).toBe('app:renders:a:b,png:=meta')
    expect(keys[1]).toMatch(/^app:renders:a:b,png:=v[a-f0-9]{24}$/)
    await store.dispose?.()
    // The caller's storage is still usable, and a new store over it finds the file.
    const again = unstorageFileStore({ storage, base: 'app:renders', publicBaseUrl: PUBLIC_BASE, signer })
    expect(Buffer.from((await again.get('a/b.png'))!.bytes).equals(Buffer.from(everyByte()))).toBe(true)
    expect(() => unstorageFileStore({ storage: undefined as never, publicBaseUrl: PUBLIC_BASE, signer })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }))
    expect(() => unstorageFileStore({ storage, publicBaseUrl: PUBLIC_BASE, signer, persistent: 'yes' as never })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }))
    expect(() => unstorageFileStore({ storage, base: 'bad base', publicBaseUrl: PUBLIC_BASE, signer })).toThrow(TypeError)
  })

  it('fs › bytes are stored raw next to a JSON record, and no temp file is left', async () => {
    const dir = join(root, 'layout')
    const store = fsFileStore({ dir, publicBaseUrl: PUBLIC_BASE, signer })
    const bytes = everyByte()
    await Promise.all(Array.from({ length: 10 }, () => store.put('u_1/r_2.png', bytes, { contentType: 'image/png', visibility: 'private' })))
    const folder = join(dir, 'litho', 'files', 'u_1', 'r_2,png')
    const names = readdirSync(folder).sort()
    // One record and exactly one version: each replace removed the previous version.
    expect(names).toHaveLength(2)
    expect(names[0]).toBe('=meta')
    expect(names[1]).toMatch(/^=v[a-f0-9]{24}$/)
    expect(Buffer.from(readFileSync(join(folder, names[1]!))).equals(Buffer.from(bytes))).toBe(true)
    expect(JSON.parse(readFileSync(join(folder, '=meta'), 'utf8'))).toMatchObject({ v: 1, file: { key: 'u_1/r_2.png', size: 600 } })
    expect(readdirSync(join(dir, '.litho-tmp'))).toEqual([])
    await store.dispose?.()
  })

  it('redis › bytes are stored raw (not base64)', async () => {
    const base = `${redisBase}:raw`
    const store = redisFileStore({ url: REDIS_URL, base, publicBaseUrl: PUBLIC_BASE, signer })
    try {
      await store.put('a/b.png', everyByte(), { contentType: 'image/png', visibility: 'public' })
      const keys = (await admin.keys(`${base}:*`)).sort()
      expect(keys).toHaveLength(2)
      expect(keys[0]).toMatch(new RegExp(`^${base}:a:b,png:=meta$`))
      const raw = await admin.getBuffer(keys[1]!)
      expect(raw && raw.equals(Buffer.from(everyByte()))).toBe(true)
    } finally {
      await store.dispose?.()
    }
  })

  it('signed URLs are <publicBaseUrl>/<key>?exp&kid&sig, verified over /<key>', async () => {
    const store = memoryFileStore({ publicBaseUrl: `${PUBLIC_BASE}/`, signer })
    const now = new Date('2026-01-01T00:00:00.000Z')
    const url = new URL(await store.signedUrl('u_1/r_2.png', { now, expiresAt: new Date(now.getTime() + 60_000) }))
    expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_BASE}/u_1/r_2.png`)
    expect([...url.searchParams.keys()]).toEqual(['exp', 'kid', 'sig'])
    expect(store.publicUrl('u_1/r_2.png')).toBe(`${PUBLIC_BASE}/u_1/r_2.png`)
    expect(verifyFileRequest(signer, { key: 'u_1/r_2.png', query: url.searchParams, now })).toMatchObject({ ok: true })
    expect(verifyFileRequest(signer, { key: 'u_1/r_2.png', query: url.search, now: new Date(now.getTime() + 61_000) })).toEqual({ ok: false, reason: 'expired' })
    expect(verifyFileRequest(signer, { key: 'u_1/r_3.png', query: url.search, now })).toEqual({ ok: false, reason: 'bad_signature' })
    expect(verifyFileRequest(signer, { key: 'u_1/%2e%2e/r_2.png', query: url.search, now })).toEqual({ ok: false, reason: 'malformed' })
    expect(verifyFileRequest(signer, { key: '../u_1/r_2.png', query: url.search, now })).toEqual({ ok: false, reason: 'malformed' })
  })

  it('a failing backend rejects with ERR_STORAGE', async () => {
    const store = redisFileStore({ url: 'redis://127.0.0.1:1', base: `${redisBase}:down`, publicBaseUrl: PUBLIC_BASE, signer })
    try {
      await expect(store.get('a.png')).rejects.toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'file-store', operation: 'get' } })
    } finally {
      await store.dispose?.()
    }
  })

  it('rejects bad options with a TypeError at once', () => {
    const typeError = (code: string) => expect.objectContaining({ name: 'TypeError', code })
    expect(() => memoryFileStore({ signer } as never)).toThrow(typeError('ERR_MISSING_OPTION'))
    expect(() => memoryFileStore({ publicBaseUrl: 'ftp://x/files', signer })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
    expect(() => memoryFileStore({ publicBaseUrl: PUBLIC_BASE } as never)).toThrow(typeError('ERR_MISSING_OPTION'))
    expect(() => memoryFileStore({ publicBaseUrl: PUBLIC_BASE, signer: {} as never })).toThrow(typeError('ERR_INVALID_ARG_TYPE'))
    expect(() => fsFileStore({ publicBaseUrl: PUBLIC_BASE, signer } as never)).toThrow(typeError('ERR_MISSING_OPTION'))
    expect(() => redisFileStore({ publicBaseUrl: PUBLIC_BASE, signer, base: 'a b' })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
    expect(() => s3FileStore({ endpoint: 'http://127.0.0.1:1', bucket: BUCKET, accessKeyId: 'x' } as never)).toThrow(typeError('ERR_MISSING_OPTION'))
    expect(() => s3FileStore({ endpoint: 'http://127.0.0.1:1', bucket: 'Bad_Bucket', ...CREDENTIALS })).toThrow(typeError('ERR_INVALID_ARG_VALUE'))
  })
})

describe('s3 file store (s3rver)', () => {
  it('s3 › put sends x-amz-acl public-read or private by visibility, and keeps it as metadata', async () => {
    const acls: Array<string | null> = []
    const store = s3({
      fetch: async (input, init) => {
        const request = new Request(input, init)
        if (request.method === 'PUT') acls.push(request.headers.get('x-amz-acl'))
        return fetch(request)
      },
    })
    await store.put('acl/public.png', new Uint8Array([1]), { contentType: 'image/png', visibility: 'public' })
    await store.put('acl/private.png', new Uint8Array([2]), { contentType: 'image/png', visibility: 'private' })
    expect(acls).toEqual(['public-read', 'private'])
    const metadata = JSON.parse(readFileSync(join(s3Dir, BUCKET, 'acl', 'private.png._S3rver_metadata.json'), 'utf8')) as Record<string, string>
    expect(metadata).toMatchObject({ 'content-type': 'image/png', 'x-amz-meta-litho-visibility': 'private' })
    expect((await store.get('acl/private.png'))?.file.visibility).toBe('private')
    expect((await store.get('acl/public.png'))?.file.visibility).toBe('public')
  })

  it('s3 › publicUrl serves a public file without a signature; signedUrl is a SigV4 presigned GET', async () => {
    const store = s3()
    expect(store.capabilities).toEqual({ presigned: true, persistent: true })
    await store.put('pub/a.png', everyByte(), { contentType: 'image/png', visibility: 'public' })
    expect(store.publicUrl('pub/a.png')).toBe(`${endpoint}/${BUCKET}/pub/a.png`)
    const response = await httpFetch(store.publicUrl('pub/a.png'))
    expect(response.status).toBe(200)
    expect(Buffer.from(response.bytes).equals(Buffer.from(everyByte()))).toBe(true)
    const now = new Date()
    const url = new URL(await store.signedUrl('pub/a.png', { now, expiresAt: new Date(now.getTime() + 90_000) }))
    expect(url.searchParams.get('X-Amz-Expires')).toBe('90')
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256')
    expect(url.searchParams.has('X-Amz-Signature')).toBe(true)
    expect(url.href).not.toContain(CREDENTIALS.secretAccessKey + 'x')
    expect(s3({ publicBaseUrl: 'https://cdn.example.com/r/' }).publicUrl('pub/a.png')).toBe('https://cdn.example.com/r/pub/a.png')
  })

  it('s3 › signedUrl carries a valid SigV4 query signature that an edited key breaks (checked independently of aws4fetch)', async () => {
    const store = s3()
    const now = new Date()
    const url = await store.signedUrl('sig/a.png', { now, expiresAt: new Date(now.getTime() + 3_600_000) })
    expect(verifyPresigned(url, CREDENTIALS.secretAccessKey)).toBe(true)
    expect(verifyPresigned(url.replace('sig/a.png', 'sig/b.png'), CREDENTIALS.secretAccessKey)).toBe(false)
    expect(verifyPresigned(url.replace('X-Amz-Expires=3600', 'X-Amz-Expires=7200'), CREDENTIALS.secretAccessKey)).toBe(false)
    expect(verifyPresigned(url, 'another-secret')).toBe(false)
    expect(new URL(url).searchParams.get('X-Amz-Date')).toBe(now.toISOString().replace(/[:-]|\.\d{3}/g, ''))
  })

  it('s3 › with a sessionToken every request carries x-amz-security-token, covered by the SigV4 signature', async () => {
    const sessionToken = 'FwoGZXIvYXdzEXAMPLE-session-token/+='
    const seen: Request[] = []
    const store = s3({
      sessionToken,
      fetch: async (input, init) => {
        const request = new Request(input, init)
        seen.push(request.clone())
        return fetch(request)
      },
    })
    await store.put('tok/a.png', new Uint8Array([7]), { contentType: 'image/png', visibility: 'private' })
    expect((await store.get('tok/a.png'))?.bytes).toEqual(new Uint8Array([7]))
    expect(await store.delete('tok/a.png')).toBe(true)
    expect(seen.map((r) => r.method)).toEqual(['PUT', 'GET', 'HEAD', 'DELETE'])
    for (const request of seen) {
      expect(request.headers.get('x-amz-security-token'), request.method).toBe(sessionToken)
      expect(signedHeaderNames(request), request.method).toContain('x-amz-security-token')
      expect(await verifySignedRequest(request, CREDENTIALS.secretAccessKey), request.method).toBe(true)
      // The token is signed: another token under the same signature does not verify.
      const forged = new Request(request, { headers: new Headers(request.headers) })
      forged.headers.set('x-amz-security-token', `${sessionToken}x`)
      expect(await verifySignedRequest(forged, CREDENTIALS.secretAccessKey), request.method).toBe(false)
    }
    // Without a token, no token header (long-lived keys).
    const plain: Request[] = []
    await s3({ fetch: async (input, init) => (plain.push(new Request(input, init)), fetch(new Request(input, init))) }).get('tok/none.png')
    expect(plain[0]!.headers.has('x-amz-security-token')).toBe(false)
  })

  it('s3 › with a sessionToken a signed URL carries X-Amz-Security-Token inside the signed query', async () => {
    const sessionToken = 'IQoJb3JpZ2luX2VjEXAMPLE'
    const store = s3({ sessionToken })
    await store.put('tok/b.png', new Uint8Array([8]), { contentType: 'image/png', visibility: 'private' })
    const now = new Date()
    const url = await store.signedUrl('tok/b.png', { now, expiresAt: new Date(now.getTime() + 60_000) })
    expect(new URL(url).searchParams.get('X-Amz-Security-Token')).toBe(sessionToken)
    expect(verifyPresigned(url, CREDENTIALS.secretAccessKey)).toBe(true)
    const edited = new URL(url)
    edited.searchParams.set('X-Amz-Security-Token', 'another-token')
    expect(verifyPresigned(edited.href, CREDENTIALS.secretAccessKey)).toBe(false)
    expect((await httpFetch(url)).status).toBe(200)
  })

  it("s3 › acl: 'none' sends no x-amz-acl (buckets with ACLs disabled refuse it) and still keeps visibility", async () => {
    const puts: Request[] = []
    const store = s3({
      acl: 'none',
      fetch: async (input, init) => {
        const request = new Request(input, init)
        if (request.method === 'PUT') puts.push(request.clone())
        return fetch(request)
      },
    })
    await store.put('noacl/public.png', new Uint8Array([1]), { contentType: 'image/png', visibility: 'public' })
    await store.put('noacl/private.png', new Uint8Array([2]), { contentType: 'image/png', visibility: 'private' })
    expect(puts.map((r) => r.headers.has('x-amz-acl'))).toEqual([false, false])
    expect(puts.flatMap((r) => signedHeaderNames(r))).not.toContain('x-amz-acl')
    for (const request of puts) expect(await verifySignedRequest(request, CREDENTIALS.secretAccessKey)).toBe(true)
    expect((await store.get('noacl/public.png'))?.file.visibility).toBe('public')
    expect((await store.get('noacl/private.png'))?.file.visibility).toBe('private')
    expect(() => s3({ acl: 'public' as never })).toThrow(/Expected option acl to be "public-read" or "none" but received a string/)
    expect(() => s3({ sessionToken: '' })).toThrow(/Expected option sessionToken to be a non-empty string/)
  })

  it('s3 › errors reject with ERR_STORAGE and the S3 code, never the credentials', async () => {
    const accessKeyId = 'AKIALEAKCHECK0001'
    const secretAccessKey = 'secret-that-must-not-leak-7f3a9c'
    const checks: Array<[string, FileStore, string]> = [
      ['unknown key id', s3({ accessKeyId, secretAccessKey }), 'InvalidAccessKeyId'],
      // (A wrong secret with a known key id is accepted: s3rver does not verify SigV4 signatures.)
      ['unknown bucket', s3({ bucket: 'no-such-bucket-here' }), 'NoSuchBucket'],
    ]
    for (const [label, store, s3Code] of checks) {
      const error = await store.put('err/a.png', new Uint8Array([1]), { contentType: 'image/png', visibility: 'private' }).catch((reason: unknown) => reason)
      expect(error, label).toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { adapter: 'file-store', operation: 'put', s3Code } })
      const text = `${(error as Error).message} ${JSON.stringify(error)} ${String((error as Error).cause ?? '')}`
      for (const secret of [accessKeyId, secretAccessKey]) expect(text, label).not.toContain(secret)
    }
    const down = s3({ endpoint: 'http://127.0.0.1:1', accessKeyId, secretAccessKey })
    const error = await down.get('err/a.png').catch((reason: unknown) => reason)
    expect(error).toMatchObject({ name: 'LithoError', code: 'ERR_STORAGE', details: { operation: 'get' } })
    const text = `${(error as Error).message} ${JSON.stringify(error)} ${String((error as Error).cause ?? '')}`
    for (const secret of [accessKeyId, secretAccessKey]) expect(text).not.toContain(secret)
  })
})

/** The `SignedHeaders` of a request's SigV4 `Authorization` header. */
function signedHeaderNames(request: Request): string[] {
  return /SignedHeaders=([^,]+)/.exec(request.headers.get('authorization') ?? '')?.[1]?.split(';') ?? []
}

/** SigV4 header verification (AWS docs, "Authenticating Requests: Using the Authorization Header"), written on node:crypto, independent of aws4fetch. */
async function verifySignedRequest(request: Request, secret: string): Promise<boolean> {
  const match = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(request.headers.get('authorization') ?? '')
  const datetime = request.headers.get('x-amz-date')
  if (!match || !datetime) return false
  const [, credential, signed, signature] = match as unknown as [string, string, string, string]
  const [, date, region, service] = credential.split('/') as [string, string, string, string]
  const url = new URL(request.url)
  const names = signed.split(';')
  const headers = names.map((name) => `${name}:${name === 'host' ? url.host : (request.headers.get(name) ?? '').trim().replace(/\s+/g, ' ')}`)
  const body = new Uint8Array(await request.clone().arrayBuffer())
  const payload = request.headers.get('x-amz-content-sha256') ?? createHash('sha256').update(body).digest('hex')
  if (payload !== 'UNSIGNED-PAYLOAD' && payload !== createHash('sha256').update(body).digest('hex')) return false
  const canonical = [request.method, url.pathname, url.search.slice(1), ...headers, '', signed, payload].join('\n')
  const scope = `${date}/${region}/${service}/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', datetime, scope, createHash('sha256').update(canonical).digest('hex')].join('\n')
  const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest()
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request')
  return hmac(key, toSign).toString('hex') === signature
}

/** SigV4 query-string verification (AWS docs, "Authenticating Requests: Using Query Parameters"), for GET with only `host` signed. */
function verifyPresigned(href: string, secret: string): boolean {
  const url = new URL(href)
  const q = url.searchParams
  const signature = q.get('X-Amz-Signature')
  const datetime = q.get('X-Amz-Date')
  const credential = q.get('X-Amz-Credential')
  if (!signature || !datetime || !credential || q.get('X-Amz-SignedHeaders') !== 'host' || q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return false
  const [, date, region, service] = credential.split('/') as [string, string, string, string]
  const rfc3986 = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  const query = [...q.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [rfc3986(name), rfc3986(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&')
  const canonical = ['GET', url.pathname, query, `host:${url.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n')
  const scope = `${date}/${region}/${service}/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', datetime, scope, createHash('sha256').update(canonical).digest('hex')].join('\n')
  const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest()
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request')
  return hmac(key, toSign).toString('hex') === signature
}
