/**
 * Serves files of an app-served file store (fs, Redis, memory): public files to anyone with
 * the URL, private files only with a valid, unexpired signature made for exactly that path.
 *
 * @module app/serve-file
 */
import type { UrlSigner } from '@litho/core'
import type { FileStore } from '@litho/core/contracts'
import { verifyFileRequest } from '@litho/storage-adapters/file-store'
import { getRouterParam, type H3Event } from 'h3'
import { FastResponse } from 'srvx'
import { errorJson } from './errors.js'

/**
 * The response for `GET|HEAD /files/<key>`. The signature is checked before any I/O; a file
 * that is not there is a 404 whatever the signature says.
 */
export async function serveStoredFile(event: H3Event, deps: { files: FileStore; signer: UrlSigner; now: Date }): Promise<Response> {
  const key = getRouterParam(event, 'key') ?? ''
  const query = event.url.searchParams
  let signedUntil: Date | undefined
  if (query.has('sig') || query.has('exp') || query.has('kid')) {
    const verdict = verifyFileRequest(deps.signer, { key, query, now: deps.now })
    if (!verdict.ok) {
      if (verdict.reason === 'malformed') return errorJson(404, 'no such file')
      return errorJson(403, verdict.reason === 'expired' ? 'this signed URL has expired' : 'this signed URL is not valid for this file', { code: 'ERR_BAD_SIGNATURE' })
    }
    signedUntil = verdict.expiresAt
  }
  const found = /^[A-Za-z0-9._~/-]{1,512}$/.test(key) ? await deps.files.get(key) : null
  if (found === null) return errorJson(404, 'no such file')
  const { file, bytes } = found
  if (signedUntil === undefined && file.visibility !== 'public') return errorJson(403, 'this file is private: fetch it with its signed URL', { code: 'ERR_BAD_SIGNATURE' })
  const maxAge = signedUntil ? Math.max(0, Math.floor((signedUntil.getTime() - deps.now.getTime()) / 1000)) : 0
  const headers = {
    'content-type': file.contentType,
    'content-length': String(bytes.byteLength),
    // Keys are unique per render and never rewritten, so a public file never changes.
    'cache-control': signedUntil ? `private, max-age=${maxAge}` : 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
    'last-modified': new Date(file.createdAt).toUTCString(),
  }
  return new FastResponse(event.req.method === 'HEAD' ? null : bytes, { status: 200, headers })
}
