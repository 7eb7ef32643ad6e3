/**
 * What the file stores share: the app-served store over a byte backend (memory, fs, Redis; the
 * layout is written in `../file-store.ts`), {@link verifyFileRequest}, and the checks of keys,
 * files, lifetimes and options every file store runs. Internal, but for `verifyFileRequest` and
 * the option and verdict types, which `../file-store.ts` exports.
 *
 * @module kit/file-store
 */
import { randomBytes } from 'node:crypto'
import type { FileStore, FileVisibility, StoredFile } from '@litho/core/contracts'
import { canonicalPath, MAX_SIGNED_URL_SECONDS, type UrlSigner, type VerifyFailure } from '@litho/core/signing'
import { createLock } from './locks.js'
import { storeKit, type StoreKit } from './store-base.js'
import { describe } from './validate.js'

/** Options shared by the app-served stores (memory, fs, Redis). */
export interface AppServedFileStoreOptions {
  /** Where the app serves files, without a trailing slash, e.g. `https://render.example.com/files` (**required**). */
  publicBaseUrl: string
  /** Signs the signed URLs; the HTTP app verifies them with the same signer (**required**). */
  signer: UrlSigner
}

/** The result of {@link verifyFileRequest}. */
export type FileRequestVerdict = { ok: true; expiresAt: Date } | { ok: false; reason: VerifyFailure }

/** The errors and checks of the file stores. */
export const kit: StoreKit = storeKit({ label: 'file-store', adapter: 'file-store', defaultBase: 'litho:files' })
/** `type/subtype` and optional parameters; no control characters (it becomes a header). */
export const CONTENT_TYPE_RE = /^[A-Za-z0-9!#$&^_.+-]{1,127}\/[A-Za-z0-9!#$&^_.+-]{1,127}(?:\s*;[\x20-\x7e]*)?$/
/** A version of a file's bytes: 12 random bytes, hex. */
export const VERSION_RE = /^[a-f0-9]{24}$/
/** The format of a file's record (`v`). */
export const META_VERSION = 1

// --- the app-served stores ---

/** What the app-served store needs from a backend: bytes by key, nothing else. */
export interface ByteBackend {
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




/** The store over a byte backend; keys are laid out as the module comment says. */
export function appServedFileStore(urls: { publicBaseUrl: string; signer: UrlSigner }, base: string, backend: ByteBackend): FileStore {
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



// --- validation and errors ---

/** A copy of an error with every secret removed from its message (the cause must not leak them either). */
export function scrub(error: unknown, secrets: readonly string[]): Error {
  const message = error instanceof Error ? error.message : String(error)
  let clean = message
  for (const secret of secrets) if (secret.length > 0) clean = clean.split(secret).join('[redacted]')
  const copy = new Error(clean)
  copy.name = error instanceof Error ? error.name : 'Error'
  return copy
}

/** Throws unless `key` is `<segment>/<segment>/…` of `[A-Za-z0-9._~-]` (see canonicalPath). */
export function assertKey(key: unknown): asserts key is string {
  if (typeof key !== 'string') throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected key to be a string but received ${describe(key)}`)
  if (canonicalPath(`/${key}`) === null) {
    throw kit.typeError('ERR_INVALID_ARG_VALUE', 'Expected key to be "/"-separated segments of [A-Za-z0-9._~-], none empty, "." or "..", at most 1023 characters')
  }
}

export function validatePut(key: unknown, bytes: unknown, options: unknown): { contentType: string; visibility: FileVisibility } {
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
export function validateLifetime(options: unknown): { expiresAt: Date; now: Date; seconds: number } {
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

export function readAppServedOptions(options: AppServedFileStoreOptions | undefined): { publicBaseUrl: string; signer: UrlSigner } {
  if (typeof options !== 'object' || options === null) throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected options to be an object but received ${describe(options)}`)
  const publicBaseUrl = readHttpUrl('publicBaseUrl', options.publicBaseUrl)
  if (options.signer === undefined) throw kit.typeError('ERR_MISSING_OPTION', 'Expected option signer (createUrlSigner of @litho/core) but received none')
  assertSigner(options.signer)
  return { publicBaseUrl, signer: options.signer }
}

export function assertSigner(signer: unknown): asserts signer is UrlSigner {
  const s = signer as Partial<UrlSigner> | null
  if (typeof s !== 'object' || s === null || typeof s.sign !== 'function' || typeof s.verify !== 'function') {
    throw kit.typeError('ERR_INVALID_ARG_TYPE', `Expected signer to be a UrlSigner (createUrlSigner of @litho/core) but received ${describe(signer)}`)
  }
}

/** An http(s) URL without query, fragment or trailing slash. */
export function readHttpUrl(name: string, value: unknown): string {
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

export function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value
  if (value instanceof ArrayBuffer) return new Uint8Array(value)
  throw kit.storageError('get', `Expected bytes from the driver but received ${describe(value)}`)
}

export function isoOr(...candidates: Array<string | null>): string {
  for (const candidate of candidates) {
    if (candidate === null) continue
    const time = Date.parse(candidate)
    if (Number.isFinite(time)) return new Date(time).toISOString()
  }
  return new Date(0).toISOString()
}
