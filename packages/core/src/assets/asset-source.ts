/**
 * How renders get the assets their documents name (`asset:<id>` in an image `src`): from the
 * asset and file stores, on the thread that takes the request, never over HTTP. The bytes travel
 * with the resolved document to the render thread, whose image loader caches the decoded and
 * resized pixels by asset id (assets are immutable, so that key never goes stale).
 *
 * @module assets/asset-source
 */
import { LRUCache } from 'lru-cache'
import type { AssetStore } from '../contracts/asset-store.js'
import type { FileStore } from '../contracts/file-store.js'
import { walkComponents } from '../design/walk.js'
import { LithoError } from '../errors.js'
import type { AssetBytes, ResolvedDocument } from '../render/resolve-document.js'
import { assetFileKey, assetNotFound } from './asset-services.js'

/** Loads an account's assets for renders. */
export interface AssetSource {
  /**
   * The bytes of asset `id` when `owner` owns it.
   *
   * @throws LithoError `ERR_ASSET_NOT_FOUND` naming `field` for an unknown id or another account's asset.
   */
  load(owner: string, id: string, field: string): Promise<AssetBytes>
}

/** Options of {@link createAssetSource}. */
export interface AssetSourceOptions {
  /** Bytes of asset files kept in memory (0: none). @default 64 MiB */
  cacheBytes?: number
}

// A design draws a handful of assets, reused by every render of it: 64 MB keeps six maximum-size
// (10 MB) assets and many small ones, so a burst of renders reads each from the store once.
const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024
/** `asset:` then a store id: what the design schema accepts in `src`. */
const ASSET_REF = /^asset:([A-Za-z0-9_-]{1,64})$/

/**
 * An asset source over the stores, with a byte-bounded cache of asset bytes by id (no TTL: an
 * asset's bytes never change). The record is read on every load, so a deleted asset or another
 * account's is refused at once.
 *
 * @example const source = createAssetSource({ assets: memoryAssetStore(), files })
 */
export function createAssetSource(ports: { assets: Pick<AssetStore, 'get'>; files: Pick<FileStore, 'get'> }, options: AssetSourceOptions = {}): AssetSource {
  const cacheBytes = options.cacheBytes ?? DEFAULT_CACHE_BYTES
  const cache = cacheBytes > 0 ? new LRUCache<string, AssetBytes & { owner: string }>({ max: 1024, maxSize: cacheBytes, sizeCalculation: (entry) => Math.max(1, entry.bytes.byteLength) }) : undefined
  return {
    async load(owner, id, field) {
      // The record is read every time (a small read): ownership and deletion are the store's
      // word, never the cache's. Only the bytes, which never change for an id, are cached.
      const record = await ports.assets.get(id)
      if (record === null || record.owner !== owner) throw assetNotFound(id, field)
      const cached = cache?.get(id)
      if (cached !== undefined) return { bytes: cached.bytes, contentType: record.contentType }
      const file = await ports.files.get(assetFileKey(record.owner, record.id))
      if (file === null) throw assetNotFound(id, field, `${field}: the file of asset "${id}" is missing from the file store`)
      if (cache !== undefined && file.bytes.byteLength <= cacheBytes) cache.set(id, { owner, bytes: file.bytes, contentType: record.contentType })
      return { bytes: file.bytes, contentType: record.contentType }
    },
  }
}

/** The asset id of an image `src`, or undefined when it is not an `asset:` reference. */
export function assetIdOf(src: string | undefined): string | undefined {
  return typeof src === 'string' && src.startsWith('asset:') ? ASSET_REF.exec(src)?.[1] : undefined
}

/**
 * The resolved document with the bytes of every asset it draws attached (`resolved.assets`),
 * loaded for `owner`. A document without `asset:` references is returned as it is.
 *
 * @throws LithoError `ERR_ASSET_NOT_FOUND` naming the field (`photo.src`) for an asset that is
 * not the owner's, or when there is no asset source.
 * @example const withAssets = await attachAssets(prepared.resolved, source, 'u_1')
 */
export async function attachAssets(resolved: ResolvedDocument, source: AssetSource | undefined, owner: string): Promise<ResolvedDocument> {
  const wanted = new Map<string, string>()
  walkComponents(resolved.document.components, (component) => {
    if (component.type !== 'image' || !component.visible) return
    const id = assetIdOf(component.src)
    if (id !== undefined && !wanted.has(id)) wanted.set(id, `${component.key}.src`)
  })
  if (wanted.size === 0) return resolved
  if (source === undefined) {
    const [id, field] = wanted.entries().next().value as [string, string]
    throw new LithoError('ERR_ASSET_NOT_FOUND', `${field}: asset:${id} cannot be drawn here: this server has no asset store`, { details: { id, field } })
  }
  const assets = new Map<string, AssetBytes>()
  await Promise.all([...wanted].map(async ([id, field]) => assets.set(id, await source.load(owner, id, field))))
  return { ...resolved, assets }
}
