/**
 * Stores rendered bytes for `hosted` (public URL) or `signed` (expiring URL) delivery.
 *
 * @module service/store-render
 */
import type { FileStore } from '../contracts/file-store.js'
import { LithoError } from '../errors.js'
import type { RenderResult } from '../render/render-document.js'
import { extensionOf } from './prepare-render.js'
import type { RenderedFile } from './services.js'

/** A stored render: where to fetch it, until when, and its record. */
export interface StoredRender {
  url: string
  /** Signed delivery only. */
  expiresAt?: Date
  file: RenderedFile
}

/**
 * Puts a render in the file store under `<accountId>/<renderId>.<ext>`: public for `hosted`,
 * private with a signed URL valid `expiresInMinutes` for `signed`.
 *
 * @throws LithoError `ERR_STORAGE` when the store fails.
 */
export async function storeRender(
  files: FileStore,
  render: RenderResult,
  where: { accountId: string; renderId: string; delivery: 'hosted' | 'signed'; expiresInMinutes: number; now: Date },
): Promise<StoredRender> {
  const key = `${where.accountId}/${where.renderId}.${extensionOf(render.format)}`
  const visibility = where.delivery === 'hosted' ? 'public' : 'private'
  try {
    const stored = await files.put(key, render.bytes, { contentType: render.contentType, visibility })
    const file: RenderedFile = { ...stored, format: render.format, width: render.width, height: render.height, variation: render.variation }
    if (where.delivery === 'hosted') return { url: files.publicUrl(key), file }
    const expiresAt = new Date(where.now.getTime() + where.expiresInMinutes * 60_000)
    return { url: await files.signedUrl(key, { expiresAt, now: where.now }), expiresAt, file }
  } catch (error) {
    if (LithoError.isInstance(error)) throw error
    throw new LithoError('ERR_STORAGE', `could not store the render: ${(error as Error).message}`, { cause: error, details: { adapter: files.name } })
  }
}
