/**
 * The file store in an S3 bucket (any S3 API), over the S3 REST API signed with SigV4 (aws4fetch).
 *
 * @module s3/file-store
 */
import type { FileStore, FileVisibility, StoredFile } from '@litho/core/contracts'
import { AwsClient } from 'aws4fetch'
import { assertKey, isoOr, kit, readHttpUrl, scrub, validateLifetime, validatePut } from '../kit/file-store.js'
import { describe } from '../kit/validate.js'

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
