/**
 * File stores (the `FileStore` port of `@litho/core/contracts`): stored renders, served by
 * public URL or by expiring signed URL. Four factories, one behaviour (the file-store suite of
 * `@litho/testing` checks each):
 *
 * - {@link memoryFileStore}, {@link fsFileStore} and {@link redisFileStore} keep files in an
 *   app-served backend. Their signed URLs are `<publicBaseUrl>/<key>?exp=…&kid=…&sig=…`, made
 *   with a `UrlSigner` (`createUrlSigner` of `@litho/core`) over the path `/<key>`; the HTTP
 *   app checks them with {@link verifyFileRequest} (same signer) before calling `get`.
 * - {@link s3FileStore} keeps files in an S3 bucket (any S3 API: AWS, R2, MinIO, s3rver); its
 *   signed URLs are SigV4 presigned GETs that S3 itself checks (`capabilities.presigned`).
 *
 * Layout of the app-served stores (`base` defaults to `litho:files`). A key `a/b.png` becomes the
 * storage path `<base>:a:b,png` (each `.` written as `,`, which keys never contain, so no stored
 * name starts with a dot, holds `..`, or meets the fs driver's temp folder), under which:
 * - `…:=meta` → `{"v":1,"version":"…","file":{…StoredFile}}`, as JSON;
 * - `…:=v<version>` → the bytes of that version.
 * Leaf names start with `=`, never part of a key, so the file `a` and the file `a/b` never
 * collide (on fs, `a` is a directory in both).
 *
 * Write order, so a crash never leaves anything `get` could return half-written: `put` writes
 * the bytes under a new version, then the record naming it (one atomic write: temp file and
 * rename on fs, one SET on Redis), then removes the previous version. `delete` removes the
 * record first, then the bytes. A crash can leave an orphan version (bytes nobody names): it
 * wastes space and is never returned.
 *
 * @module file-store
 */
import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import { canonicalPath, MAX_SIGNED_URL_SECONDS, type FileStore, type FileVisibility, type StoredFile, type UrlSigner, type VerifyFailure } from '@litho/core/contracts'
import { AwsClient } from 'aws4fetch'
import { createStorage, type Storage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'
import { atomicFsDriver } from './kit/atomic-fs-driver.js'
import { createLock } from './kit/locks.js'
import { DEFAULT_REDIS_URL, loadRedisDriver, storeKit, type StoreKit } from './kit/store-base.js'
import { describe } from './kit/validate.js'

/** Options shared by the app-served stores (memory, fs, Redis). */
export interface AppServedFileStoreOptions {
  /** Where the app serves files, without a trailing slash, e.g. `https://render.example.com/files` (**required**). */
  publicBaseUrl: string
  /** Signs the signed URLs; the HTTP app verifies them with the same signer (**required**). */
  signer: UrlSigner
}

/** Options of {@link memoryFileStore}. */
export type MemoryFileStoreOptions = AppServedFileStoreOptions

/** Options of {@link fsFileStore}. */
export interface FsFileStoreOptions extends AppServedFileStoreOptions {
  /** The directory holding the files (**required**); created on first write. */
  dir: string
  /** Prefix of every stored path, `:`-separated segments of `[A-Za-z0-9_-]`. @default 'litho:files' */
  base?: string
}

/** Options of {@link redisFileStore}. */
export interface RedisFileStoreOptions extends AppServedFileStoreOptions {
  /** Where Redis is. @default 'redis://127.0.0.1:6379' */
  url?: string
  /** Prefix of every key. @default 'litho:files' */
  base?: string
}

/** Options of {@link s3FileStore}. */
export interface S3FileStoreOptions {
  /** The S3 API origin, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:9000` (**required**). */
  endpoint: string
  /** The bucket (**required**); it must exist. */
  bucket: string
  /** The signing region. @default 'us-east-1' */
  region?: string
  accessKeyId: string
  secretAccessKey: string
  /**
   * The session token of temporary credentials (STS, an instance or task role), sent as
   * `x-amz-security-token` and covered by the signature (in the query of signed URLs).
   * @default none (long-lived keys)
   */
  sessionToken?: string
  /**
   * Whether `put` sends an ACL: `'public-read'` sends `x-amz-acl: public-read` for public files
   * and `x-amz-acl: private` for private ones; `'none'` sends no `x-amz-acl` (buckets with ACLs
   * disabled refuse it), so public files are public only through a bucket policy or a CDN in
   * `publicBaseUrl`. @default 'public-read'
   */
  acl?: S3Acl
  /** Where public files are read from (a CDN, a bucket domain). @default `<endpoint>/<bucket>` */
  publicBaseUrl?: string
  /** Path-style URLs (`<endpoint>/<bucket>/<key>`); false for virtual-hosted (`<bucket>.<host>/<key>`). @default true */
  forcePathStyle?: boolean
  /** The fetch to send requests with (a proxy, a test that inspects requests). @default globalThis.fetch */
  fetch?: typeof globalThis.fetch
}

/**
 * What an S3 file store sends as `x-amz-acl`: `'public-read'` (by visibility) or `'none'`.
 *
 * @example
 * const acl: S3Acl = process.env.LITHO_S3_ACL === 'none' ? 'none' : 'public-read'
 */
export type S3Acl = 'public-read' | 'none'

/** The result of {@link verifyFileRequest}. */
export type FileRequestVerdict = { ok: true; expiresAt: Date } | { ok: false; reason: VerifyFailure }

const kit: StoreKit = storeKit({ label: 'file-store', adapter: 'file-store', defaultBase: 'litho:files' })
/** `type/subtype` and optional parameters; no control characters (it becomes a header). */
const CONTENT_TYPE_RE = /^[A-Za-z0-9!#$&^_.+-]{1,127}\/[A-Za-z0-9!#$&^_.+-]{1,127}(?:\s*;[\x20-\x7e]*)?$/
const VERSION_RE = /^[a-f0-9]{24}$/
const META_VERSION = 1

// --- the app-served stores ---

/** What the app-served store needs from a backend: bytes by key, nothing else. */
interface ByteBackend {
  name: string
  persistent: boolean
  read(key: string): Promise<Uint8Array | null>
  /** One atomic write: a reader sees the old value or the new one, whole. */
  write(key: string, bytes: Uint8Array): Promise<void>
  remove(key: string): Promise<void>
  dispose(): Promise<void>
}

/**
 * Checks a request for a file of an app-served store: the signature (made by `signedUrl` over the
 * path `/<key>`) and the expiry, with the server's `now`. `key` is the path after
 * `publicBaseUrl/`, as received (not percent-decoded); `query` the raw query string or its
 * parameters. An invalid key is `malformed`. Serve the file (`store.get(key)`) only when `ok`.
 *
 * @example
 * const verdict = verifyFileRequest(signer, { key: 'u_1/r_2.png', query: url.search, now: new Date() })
 * if (!verdict.ok) return new Response(null, { status: 403 })
 */
export function verifyFileRequest(signer: UrlSigner, request: { key: string; query: URLSearchParams | string; now: Date }): FileRequestVerdict {
  assertSigner(signer)
  const { key, query, now } = request ?? ({} as never)
  if (!(now instanceof Date) || !Number.isFinite(now.getTime())) throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected now to be a valid Date but received ${describe(now)}`)
  if (typeof key !== 'string' || canonicalPath(`/${key}`) === null) return { ok: false, reason: 'malformed' }
  const params = typeof query === 'string' ? new URLSearchParams(query) : query instanceof URLSearchParams ? query : null
  if (params === null) return { ok: false, reason: 'malformed' }
  return signer.verify({ path: `/${key}`, query: params, now })
}

/**
 * A file store in process memory: for tests and development. Every call gives a new, empty
 * store; nothing survives the process.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE`, `ERR_INVALID_ARG_VALUE` or `ERR_MISSING_OPTION` for bad options.
 * @example
 * const files = memoryFileStore({ publicBaseUrl: 'http://localhost:3000/files', signer })
 */
export function memoryFileStore(options: MemoryFileStoreOptions): FileStore {
  const urls = readAppServedOptions(options)
  const storage = createStorage({ driver: memoryDriver() })
  return appServedFileStore(urls, kit.defaultBase, {
    name: 'memory',
    persistent: false,
    // The memory driver keeps references: store and return copies.
    read: async (key) => {
      const value = await storage.getItemRaw(key)
      return value === null || value === undefined ? null : Uint8Array.from(toBytes(value))
    },
    write: (key, bytes) => storage.setItemRaw(key, Uint8Array.from(bytes)),
    remove: (key) => storage.removeItem(key),
    dispose: () => storage.dispose(),
  })
}

/**
 * A file store in files under `options.dir` (the unstorage fs driver, with atomic writes: a
 * temporary file renamed into place). Files survive restarts.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE`, `ERR_INVALID_ARG_VALUE` or `ERR_MISSING_OPTION` for bad options.
 * @example
 * const files = fsFileStore({ dir: '.data/files', publicBaseUrl: 'https://render.example.com/files', signer })
 */
export function fsFileStore(options: FsFileStoreOptions): FileStore {
  const urls = readAppServedOptions(options)
  const dir = options.dir
  kit.assertDirectory('dir', dir)
  const base = options.base ?? kit.defaultBase
  kit.assertBase(base)
  const storage: Storage = createStorage({ driver: atomicFsDriver({ base: resolve(dir) }) })
  return appServedFileStore(urls, base, {
    name: 'fs',
    persistent: true,
    read: async (key) => {
      const value = await storage.getItemRaw(key)
      return value === null || value === undefined ? null : toBytes(value)
    },
    write: (key, bytes) => storage.setItemRaw(key, bytes),
    remove: (key) => storage.removeItem(key),
    dispose: () => storage.dispose(),
  })
}

/**
 * A file store on Redis, shared by any number of processes. Bytes are stored raw (`SET` of a
 * buffer, read with `GETBUFFER`) on the ioredis client of the unstorage redis driver, not through
 * unstorage's `setItemRaw`, which would store them base64-encoded. The client is loaded and
 * connected at the first call; `dispose()` closes it. Keep files small: each is one Redis value.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE`, `ERR_INVALID_ARG_VALUE` or `ERR_MISSING_OPTION` for bad options.
 * @example
 * const files = redisFileStore({ url: process.env.REDIS_URL, publicBaseUrl: 'https://render.example.com/files', signer })
 */
export function redisFileStore(options: RedisFileStoreOptions): FileStore {
  const urls = readAppServedOptions(options)
  const { url = DEFAULT_REDIS_URL, base = kit.defaultBase } = options
  if (typeof url !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option url to be a string but received ${describe(url)}`)
  kit.assertBase(base)
  type Client = { set(key: string, value: Buffer): Promise<unknown>; getBuffer(key: string): Promise<Buffer | null>; del(key: string): Promise<number>; quit(): Promise<unknown>; disconnect(): void }
  let loading: Promise<{ client: Client; storage: Storage }> | undefined
  let disposed = false
  const load = (): Promise<{ client: Client; storage: Storage }> => {
    if (disposed) return Promise.reject(new Error('The store was disposed'))
    // Bytes go through the driver's own ioredis client; the storage is kept to dispose it.
    return (loading ??= loadRedisDriver(url).then((driver) => ({ client: driver.getInstance?.() as unknown as Client, storage: createStorage({ driver }) })))
  }
  return appServedFileStore(urls, base, {
    name: 'redis',
    persistent: true,
    read: async (key) => {
      const value = await (await load()).client.getBuffer(key)
      return value === null ? null : new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
    },
    write: async (key, bytes) => void (await (await load()).client.set(key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))),
    remove: async (key) => void (await (await load()).client.del(key)),
    dispose: async () => {
      disposed = true
      const loaded = await loading?.catch(() => undefined)
      await loaded?.storage.dispose()
    },
  })
}

/** The store over a byte backend; keys are laid out as the module comment says. */
function appServedFileStore(urls: { publicBaseUrl: string; signer: UrlSigner }, base: string, backend: ByteBackend): FileStore {
  const { publicBaseUrl, signer } = urls
  const pathOf = (key: string) => `${base}:${key.replaceAll('.', ',').split('/').join(':')}`
  const metaKey = (key: string) => `${pathOf(key)}:=meta`
  const bytesKey = (key: string, version: string) => `${pathOf(key)}:=v${version}`

  const readMeta = async (key: string, operation: string): Promise<{ version: string; file: StoredFile } | null> => {
    const raw = await backend.read(metaKey(key))
    if (raw === null) return null
    const text = new TextDecoder().decode(raw)
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      throw kit.storageError(operation, `Expected the record of a file to be JSON but found ${raw.byteLength} bytes that are not`)
    }
    const meta = value as { v?: unknown; version?: unknown; file?: Partial<StoredFile> } | null
    const file = meta?.file
    if (meta?.v !== META_VERSION || typeof meta.version !== 'string' || !VERSION_RE.test(meta.version) || file?.key !== key || typeof file.size !== 'number') {
      throw kit.storageError(operation, 'Expected the record of a file but found something else')
    }
    return { version: meta.version, file: { key, contentType: String(file.contentType), size: file.size, visibility: file.visibility as FileVisibility, createdAt: String(file.createdAt) } }
  }

  // Writes to one key are serialized per instance, so the version a put removes is never the
  // one a concurrent put just wrote. Across instances the last record written wins.
  const withLock = createLock()

  return {
    name: backend.name,
    capabilities: { presigned: false, persistent: backend.persistent },

    async put(key, bytes, options) {
      const { contentType, visibility } = validatePut(key, bytes, options)
      const copy = Uint8Array.from(bytes)
      return withLock(key, () =>
        kit.wrapBackendErrors('put', async () => {
          const previous = await readMeta(key, 'put').catch(() => null)
          const version = randomBytes(12).toString('hex')
          const file: StoredFile = { key, contentType, size: copy.byteLength, visibility, createdAt: new Date().toISOString() }
          await backend.write(bytesKey(key, version), copy)
          await backend.write(metaKey(key), new TextEncoder().encode(JSON.stringify({ v: META_VERSION, version, file })))
          if (previous !== null && previous.version !== version) await backend.remove(bytesKey(key, previous.version))
          return { ...file }
        }),
      )
    },

    async get(key) {
      assertKey(key)
      return kit.wrapBackendErrors('get', async () => {
        // A concurrent put (another instance) may remove the version just read: read again.
        for (let attempt = 0; attempt < 3; attempt++) {
          const meta = await readMeta(key, 'get')
          if (meta === null) return null
          const bytes = await backend.read(bytesKey(key, meta.version))
          if (bytes === null) continue
          if (bytes.byteLength !== meta.file.size) throw kit.storageError('get', `Expected ${meta.file.size} bytes but found ${bytes.byteLength}`)
          return { file: meta.file, bytes }
        }
        return null
      })
    },

    async delete(key) {
      assertKey(key)
      return withLock(key, () =>
        kit.wrapBackendErrors('delete', async () => {
          const meta = await readMeta(key, 'delete').catch(() => null)
          const raw = meta === null ? await backend.read(metaKey(key)) : null
          if (meta === null && raw === null) return false
          // Record first: from here on get finds nothing; the bytes can only be orphaned.
          await backend.remove(metaKey(key))
          if (meta !== null) await backend.remove(bytesKey(key, meta.version))
          return true
        }),
      )
    },

    publicUrl(key) {
      assertKey(key)
      return `${publicBaseUrl}/${key}`
    },

    async signedUrl(key, options) {
      assertKey(key)
      const { expiresAt, now } = validateLifetime(options)
      return `${publicBaseUrl}/${key}?${signer.sign({ path: `/${key}`, expiresAt, now }).toString()}`
    },

    dispose: () => backend.dispose(),
  }
}

// --- S3 ---

/**
 * A file store in an S3 bucket, over the S3 REST API signed with SigV4 (aws4fetch): AWS S3 and
 * compatible services. `put` sends `x-amz-acl: public-read` or `private` by visibility (the
 * bucket must allow ACLs for public files to be public), or no ACL with `acl: 'none'` (buckets
 * with ACLs disabled; a bucket policy or a CDN makes public files readable). Temporary
 * credentials work with `sessionToken`. The record's content type, visibility and creation time
 * travel as object metadata. Signed URLs are presigned GETs checked by S3.
 * Errors reject with `ERR_STORAGE` carrying the S3 error code (`details.s3Code`), never the
 * credentials.
 *
 * @throws {TypeError} `ERR_INVALID_ARG_TYPE`, `ERR_INVALID_ARG_VALUE` or `ERR_MISSING_OPTION` for bad options.
 * @example
 * const files = s3FileStore({ endpoint: 'https://s3.eu-west-1.amazonaws.com', region: 'eu-west-1', bucket: 'renders', accessKeyId, secretAccessKey, forcePathStyle: false })
 */
export function s3FileStore(options: S3FileStoreOptions): FileStore {
  if (typeof options !== 'object' || options === null) throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected options to be an object but received ${describe(options)}`)
  const { bucket, region = 'us-east-1', accessKeyId, secretAccessKey, sessionToken, acl = 'public-read', forcePathStyle = true } = options
  const endpoint = readHttpUrl('endpoint', options.endpoint)
  if (typeof bucket !== 'string' || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw kit.typeError(bucket === undefined ? 'ERR_MISSING_OPTION' : 'ERR_INVALID_ARG_VALUE', `Expected option bucket to be an S3 bucket name but received ${describe(bucket)}`)
  }
  for (const [name, value] of [['accessKeyId', accessKeyId], ['secretAccessKey', secretAccessKey], ['region', region]] as const) {
    // Never echo a credential, not even in a type error.
    if (value === undefined || value === '') throw kit.typeError('ERR_MISSING_OPTION', `Expected option ${name} but received none`)
    if (typeof value !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option ${name} to be a string`)
  }
  if (sessionToken !== undefined && (typeof sessionToken !== 'string' || sessionToken === '')) {
    // Never echo the token.
    throw kit.typeError('ERR_INVALID_ARG_TYPE', 'Expected option sessionToken to be a non-empty string')
  }
  if (acl !== 'public-read' && acl !== 'none') throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected option acl to be "public-read" or "none" but received ${describe(acl)}`)
  if (typeof forcePathStyle !== 'boolean') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option forcePathStyle to be a boolean but received ${describe(forcePathStyle)}`)
  const fetchImpl = options.fetch ?? globalThis.fetch
  if (typeof fetchImpl !== 'function') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option fetch to be a function but received ${describe(fetchImpl)}`)
  const objectBase = forcePathStyle ? `${endpoint}/${bucket}` : (() => {
    const url = new URL(endpoint)
    url.hostname = `${bucket}.${url.hostname}`
    // Trailing slashes; (?<!\/) starts a match only at the first of them, so it stays linear.
    return url.toString().replace(/(?<!\/)\/+$/, '')
  })()
  const publicBaseUrl = options.publicBaseUrl === undefined ? objectBase : readHttpUrl('publicBaseUrl', options.publicBaseUrl)

  let client: AwsClient | undefined
  const aws = () => (client ??= new AwsClient({ accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }), service: 's3', region }))
  const secrets = sessionToken === undefined ? [accessKeyId, secretAccessKey] : [accessKeyId, secretAccessKey, sessionToken]
  const objectUrl = (key: string) => `${objectBase}/${key}`

  /** Sends one signed request; a network failure or an S3 error becomes ERR_STORAGE. */
  const send = async (operation: string, key: string, init: { method: string; headers?: Record<string, string>; body?: Uint8Array }, allow404 = false): Promise<Response> => {
    let response: Response
    try {
      const request = await aws().sign(objectUrl(key), { method: init.method, headers: init.headers, body: init.body })
      response = await fetchImpl(request)
    } catch (error) {
      // Only the error's name: messages of some fetch errors include the request's URL or headers.
      throw kit.storageError(operation, `the request to S3 failed (${error instanceof Error ? error.name : 'error'})`, scrub(error, secrets))
    }
    if (response.ok || (allow404 && response.status === 404)) return response
    const text = await response.text().catch(() => '')
    const s3Code = /<Code>([A-Za-z0-9.]{1,64})<\/Code>/.exec(text)?.[1] ?? `HTTP${response.status}`
    throw kit.storageError(operation, `S3 answered ${response.status} ${s3Code}`, undefined, { s3Code, status: response.status })
  }

  return {
    name: 's3',
    capabilities: { presigned: true, persistent: true },

    async put(key, bytes, options) {
      const { contentType, visibility } = validatePut(key, bytes, options)
      const body = Uint8Array.from(bytes)
      const createdAt = new Date().toISOString()
      await send('put', key, {
        method: 'PUT',
        body,
        headers: {
          'content-type': contentType,
          // Buckets with ACLs disabled refuse any x-amz-acl but bucket-owner-full-control.
          ...(acl === 'none' ? {} : { 'x-amz-acl': visibility === 'public' ? 'public-read' : 'private' }),
          'x-amz-meta-litho-visibility': visibility,
          'x-amz-meta-litho-created-at': createdAt,
        },
      })
      return { key, contentType, size: body.byteLength, visibility, createdAt }
    },

    async get(key) {
      assertKey(key)
      const response = await send('get', key, { method: 'GET' }, true)
      if (response.status === 404) {
        await response.body?.cancel().catch(() => {})
        return null
      }
      const bytes = new Uint8Array(await response.arrayBuffer())
      const visibility = response.headers.get('x-amz-meta-litho-visibility')
      const file: StoredFile = {
        key,
        contentType: response.headers.get('content-type') ?? 'application/octet-stream',
        size: bytes.byteLength,
        // Objects written by others carry no metadata: S3 objects are private unless made public.
        visibility: visibility === 'public' ? 'public' : 'private',
        createdAt: isoOr(response.headers.get('x-amz-meta-litho-created-at'), response.headers.get('last-modified')),
      }
      return { file, bytes }
    },

    async delete(key) {
      assertKey(key)
      // S3's DELETE answers 204 whether or not the object existed: HEAD first (best effort).
      const head = await send('delete', key, { method: 'HEAD' }, true)
      if (head.status === 404) return false
      await send('delete', key, { method: 'DELETE' })
      return true
    },

    publicUrl(key) {
      assertKey(key)
      return `${publicBaseUrl}/${key}`
    },

    async signedUrl(key, options) {
      assertKey(key)
      const { seconds, now } = validateLifetime(options)
      const datetime = now.toISOString().replace(/[:-]|\.\d{3}/g, '')
      try {
        const signed = await aws().sign(`${objectUrl(key)}?X-Amz-Expires=${seconds}`, { method: 'GET', aws: { signQuery: true, datetime } })
        return signed.url
      } catch (error) {
        throw kit.storageError('signedUrl', `signing failed (${error instanceof Error ? error.name : 'error'})`)
      }
    },

    async dispose() {
      client = undefined
    },
  }
}

// --- validation and errors ---

/** A copy of an error with every secret removed from its message (the cause must not leak them either). */
function scrub(error: unknown, secrets: readonly string[]): Error {
  const message = error instanceof Error ? error.message : String(error)
  let clean = message
  for (const secret of secrets) if (secret.length > 0) clean = clean.split(secret).join('[redacted]')
  const copy = new Error(clean)
  copy.name = error instanceof Error ? error.name : 'Error'
  return copy
}

/** Throws unless `key` is `<segment>/<segment>/…` of `[A-Za-z0-9._~-]` (see canonicalPath). */
function assertKey(key: unknown): asserts key is string {
  if (typeof key !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected key to be a string but received ${describe(key)}`)
  if (canonicalPath(`/${key}`) === null) {
    throw kit.typeError('ERR_INVALID_ARG_VALUE', 'Expected key to be "/"-separated segments of [A-Za-z0-9._~-], none empty, "." or "..", at most 1023 characters')
  }
}

function validatePut(key: unknown, bytes: unknown, options: unknown): { contentType: string; visibility: FileVisibility } {
  assertKey(key)
  if (!(bytes instanceof Uint8Array)) throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected bytes to be a Uint8Array but received ${describe(bytes)}`)
  if (typeof options !== 'object' || options === null) throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected options to be an object but received ${describe(options)}`)
  const { contentType, visibility } = options as Record<string, unknown>
  if (typeof contentType !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected contentType to be a string but received ${describe(contentType)}`)
  if (contentType.length > 255 || !CONTENT_TYPE_RE.test(contentType)) throw kit.typeError('ERR_INVALID_ARG_VALUE', 'Expected contentType to be a media type such as image/png')
  if (visibility !== 'public' && visibility !== 'private') {
    throw kit.typeError(typeof visibility === 'string' ? 'ERR_INVALID_ARG_VALUE' : 'ERR_INVALID_ARG_TYPE', `Expected visibility to be "public" or "private" but received ${describe(visibility)}`)
  }
  return { contentType, visibility }
}

/** The lifetime of a signed URL: 1 s to 7 days, counted in whole seconds (rounded up). */
function validateLifetime(options: unknown): { expiresAt: Date; now: Date; seconds: number } {
  if (typeof options !== 'object' || options === null) throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected options to be an object but received ${describe(options)}`)
  const { expiresAt, now } = options as Record<string, unknown>
  for (const [name, value] of [['expiresAt', expiresAt], ['now', now]] as const) {
    if (!(value instanceof Date)) throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected ${name} to be a Date but received ${describe(value)}`)
    if (!Number.isFinite(value.getTime())) throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected ${name} to be a valid Date`)
  }
  const seconds = Math.ceil(((expiresAt as Date).getTime() - (now as Date).getTime()) / 1000)
  if (seconds < 1 || seconds > MAX_SIGNED_URL_SECONDS) {
    throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected a lifetime of 1 to ${MAX_SIGNED_URL_SECONDS} seconds (7 days) but received ${seconds}`)
  }
  return { expiresAt: expiresAt as Date, now: now as Date, seconds }
}

function readAppServedOptions(options: AppServedFileStoreOptions | undefined): { publicBaseUrl: string; signer: UrlSigner } {
  if (typeof options !== 'object' || options === null) throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected options to be an object but received ${describe(options)}`)
  const publicBaseUrl = readHttpUrl('publicBaseUrl', options.publicBaseUrl)
  if (options.signer === undefined) throw kit.typeError('ERR_MISSING_OPTION', 'Expected option signer (createUrlSigner of @litho/core) but received none')
  assertSigner(options.signer)
  return { publicBaseUrl, signer: options.signer }
}

function assertSigner(signer: unknown): asserts signer is UrlSigner {
  const s = signer as Partial<UrlSigner> | null
  if (typeof s !== 'object' || s === null || typeof s.sign !== 'function' || typeof s.verify !== 'function') {
    throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected signer to be a UrlSigner (createUrlSigner of @litho/core) but received ${describe(signer)}`)
  }
}

/** An http(s) URL without query, fragment or trailing slash. */
function readHttpUrl(name: string, value: unknown): string {
  if (value === undefined || value === '') throw kit.typeError('ERR_MISSING_OPTION', `Expected option ${name} (an http(s) URL) but received none`)
  if (typeof value !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected option ${name} to be a string but received ${describe(value)}`)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected option ${name} to be an http(s) URL`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw kit.typeError('ERR_INVALID_ARG_VALUE', `Expected option ${name} to be an http(s) URL without query, fragment or credentials`)
  }
  return value.replace(/(?<!\/)\/+$/, '')
}

function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value
  if (value instanceof ArrayBuffer) return new Uint8Array(value)
  throw kit.storageError('get', `Expected bytes from the driver but received ${describe(value)}`)
}

function isoOr(...candidates: Array<string | null>): string {
  for (const candidate of candidates) {
    if (candidate === null) continue
    const time = Date.parse(candidate)
    if (Number.isFinite(time)) return new Date(time).toISOString()
  }
  return new Date(0).toISOString()
}
