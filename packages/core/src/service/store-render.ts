/**
 * Stores rendered bytes for `hosted` (public URL) or `signed` (expiring URL) delivery, within the
 * account's storage quota, and records the file for its lifetime (the retention sweep).
 *
 * @module service/store-render
 */
import type { FileStore } from '../contracts/file-store.js'
import type { Meter } from '../contracts/meter.js'
import type { RetentionIndex } from '../contracts/retention-index.js'
import { LithoError } from '../errors.js'
import { meterStorage, refundStorage } from '../quota/meter-storage.js'
import type { PlanId, PlanTable } from '../quota/plans.js'
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

/** The ports {@link storeRender} uses. Without `retention`, files are stored and counted but never swept. */
export interface StoreRenderServices {
  files: FileStore
  meter: Meter
  retention?: RetentionIndex | undefined
  /** Where the account's storage limit is read. @default PLANS */
  plans?: PlanTable | undefined
}

/**
 * Puts a render in the file store under `<accountId>/<renderId>.<ext>`: public for `hosted`,
 * private with a signed URL valid `expiresInMinutes` for `signed`. Its bytes are taken from the
 * account's storage quota first (atomically, see `quota/meter-storage`), and given back when the
 * put fails. `plan: null` counts the bytes without a limit (a job queued before plans were kept).
 * `replaces`: the key may hold a file of an earlier run of the same job, whose bytes are given
 * back first so they are not counted twice.
 *
 * @throws LithoError `ERR_STORAGE_QUOTA` when the file would pass the plan's storage (nothing is
 * stored); `ERR_STORAGE` when the store fails.
 * @example
 * const stored = await storeRender({ files, meter, retention }, result, { account: { id: 'u_1', plan: 'free' }, renderId: 'r_2', delivery: 'signed', expiresInMinutes: 60, now: new Date() })
 */
export async function storeRender(
  services: StoreRenderServices,
  render: RenderResult,
  where: { account: { id: string; plan: PlanId | null }; renderId: string; delivery: 'hosted' | 'signed'; expiresInMinutes: number; now: Date; replaces?: boolean },
): Promise<StoredRender> {
  const { files, meter, retention } = services
  const key = `${where.account.id}/${where.renderId}.${extensionOf(render.format)}`
  const visibility = where.delivery === 'hosted' ? 'public' : 'private'
  if (where.replaces) await refundStorage(meter, { accountId: where.account.id, key })
  await meterStorage(meter, { account: where.account, key, bytes: render.bytes.byteLength, plans: services.plans })
  try {
    const stored = await files.put(key, render.bytes, { contentType: render.contentType, visibility })
    const file: RenderedFile = { ...stored, format: render.format, width: render.width, height: render.height, variation: render.variation }
    const expiresAt = where.delivery === 'signed' ? new Date(where.now.getTime() + where.expiresInMinutes * 60_000) : undefined
    // Recorded before the URL is handed out: a file nobody can find would never be swept.
    await retention?.put({ key, owner: where.account.id, bytes: render.bytes.byteLength, delivery: where.delivery, createdAt: where.now.toISOString(), expiresAt: expiresAt?.toISOString() ?? null })
    if (expiresAt === undefined) return { url: files.publicUrl(key), file }
    return { url: await files.signedUrl(key, { expiresAt, now: where.now }), expiresAt, file }
  } catch (error) {
    // Nothing is handed out: the file goes (best effort) and its bytes come back.
    await files.delete(key).catch(() => false)
    await retention?.delete(key).catch(() => false)
    await refundStorage(meter, { accountId: where.account.id, key }).catch(() => false)
    if (LithoError.isInstance(error)) throw error
    throw new LithoError('ERR_STORAGE', `could not store the render: ${(error as Error).message}`, { cause: error, details: { adapter: files.name } })
  }
}
