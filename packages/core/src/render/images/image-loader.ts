/**
 * The image loader: turns an image source (https URL or data: URI) into a data: URI sized for
 * its box, ready for satori/resvg. Fetched bytes and prepared results are cached in bounded
 * LRUs, and concurrent requests for one URL share a single fetch.
 *
 * @module render/images/image-loader
 */
import { createHash } from 'node:crypto'
import { LithoError } from '../../errors.js'
import { describeReceived, invalidArgument } from '../../_internal/argument-error.js'
import { describeSource } from './describe-source.js'
import { DEFAULT_FETCH_LIMITS, fetchRemote, type FetchLimits } from './fetch-remote.js'
import { LRUCache } from 'lru-cache'
import { assertNetworkPolicy, type NetworkPolicy } from '../../network/policy.js'
import { normalizeBox } from './plan-resize.js'
import { ImageRefusal, resizeImage } from './resize-image.js'
import { describeContent, sniffImageFormat } from './sniff-format.js'
import type { AssetBytes } from '../resolve-document.js'

/** Fetch limits plus the decoded-size budget. */
export interface ImageLimits extends FetchLimits {
  /** Most decoded input pixels (width × height of one frame) accepted. */
  maxPixels: number
}

/** The limits used when none are given (docs/fonts-and-images.md, "Limits for remote images"). */
export const DEFAULT_IMAGE_LIMITS: ImageLimits = Object.freeze({
  ...DEFAULT_FETCH_LIMITS,
  // imgproxy IMGPROXY_MAX_SRC_RESOLUTION: 50 MP decodes in well under a second and a few hundred
  // MB; sharp's own default (268 MP) is too lax for a multi-tenant renderer.
  maxPixels: 50_000_000,
})

/** The box an image is drawn into, in CSS pixels. */
export interface ImageBox {
  width: number
  height: number
  fit: 'cover' | 'contain' | 'fill'
  /** The point to keep in view when cropping, 0..1 on each axis (default 0.5, 0.5). */
  focus?: { x: number; y: number }
  /** Output pixel scale (default 1). */
  scale?: number
}

/** An image ready to embed. */
export interface PreparedImage {
  dataUri: string
  /** CSS px of the box area it covers: for contain, the fitted size; else the box size. */
  width: number
  height: number
  pixelWidth: number
  pixelHeight: number
  mime: 'image/jpeg' | 'image/png'
}

/** Options of {@link createImageLoader}. */
export interface ImageLoaderOptions {
  /** Where fetches may go; default: https only, public addresses only. */
  policy?: NetworkPolicy
  /** Overrides of {@link DEFAULT_IMAGE_LIMITS}. */
  limits?: Partial<ImageLimits>
  /** max entries of each cache (default 64) */
  cacheEntries?: number
  /** max total bytes of cached bytes, per cache: source bytes (with the text of data: URIs, their keys), and prepared data: URIs (default 64 MiB) */
  cacheBytes?: number
  /** How long fetched bytes are reused for the same URL, in ms, before it is fetched again (default 10 minutes); decoded data: URIs do not expire. */
  cacheTtlMs?: number
}

/** Loads and sizes images for one renderer (one worker thread). */
export interface ImageLoader {
  /**
   * Fetches (or decodes) `src` and returns it sized for `box`. An `asset:<id>` source is taken
   * from `assets` (attached by the services, assets/asset-source), never fetched.
   */
  prepare(src: string, box: ImageBox, assets?: ReadonlyMap<string, AssetBytes>): Promise<PreparedImage>
  /** Empties both caches. */
  clear(): void
}

// A design references a handful of images, reused across variations and batch rows; a few dozen
// entries cover that while keeping the retained object count small.
const DEFAULT_CACHE_ENTRIES = 64
// The byte bound is what protects memory: 64 MB holds two maximum-size (25 MB) sources plus
// small ones. It applies to each cache and each loader (one per worker thread), so the process
// total is about 2 × 64 MB × workers.
const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024
// A URL's bytes are reused for 10 minutes, then fetched again: an image replaced at the same URL
// (a logo, a product photo) shows in renders within minutes, not only after a worker restarts,
// while a design rendered in a burst (a bulk request, a carousel) still fetches each image once.
const DEFAULT_CACHE_TTL_MS = 10 * 60 * 1000
// What we ask servers for; the bytes are sniffed regardless of what comes back.
const ACCEPT = 'image/avif,image/webp,image/png,image/jpeg,image/gif,image/svg+xml;q=0.9,*/*;q=0.1'

interface Source {
  bytes: Buffer
  contentType: string | undefined
  /** Content hash, the key of the prepared cache. */
  hash: string
}

/**
 * Creates an image loader with its own caches.
 *
 * @example
 * const images = createImageLoader({ policy: networkPolicyFromEnv() })
 * const hero = await images.prepare('https://cdn.example.com/hero.jpg', { width: 1200, height: 630, fit: 'cover' })
 * // hero.dataUri → 'data:image/jpeg;base64,…'
 */
export function createImageLoader(options: ImageLoaderOptions = {}): ImageLoader {
  // No permissive default: without an explicit policy, only https to public addresses.
  const policy: NetworkPolicy = options.policy ?? { allowHttp: false, allowNetworks: [] }
  assertNetworkPolicy(policy, 'options.policy')
  const limits = resolveImageLimits(options.limits)
  const cacheEntries = resolveCount('cacheEntries', options.cacheEntries, DEFAULT_CACHE_ENTRIES)
  const cacheBytes = resolveCount('cacheBytes', options.cacheBytes, DEFAULT_CACHE_BYTES)
  const cacheTtlMs = resolveCount('cacheTtlMs', options.cacheTtlMs, DEFAULT_CACHE_TTL_MS)

  // Raw bytes by URL, so a second box for the same image skips the network; for cacheTtlMs
  // only, since what a URL serves can change (data: URIs, below, for as long as they fit).
  // 0 entries, 0 bytes or a TTL of 0 turn a cache off (lru-cache itself reads 0 as "no bound").
  const keepPrepared = cacheEntries > 0 && cacheBytes > 0
  const keepSources = keepPrepared && cacheTtlMs > 0
  const sources = new LRUCache<string, Source>({
    max: Math.max(1, cacheEntries),
    maxSize: Math.max(1, cacheBytes),
    // The key counts too: a data: URI key is the whole image again, as text.
    sizeCalculation: (source, src) => source.bytes.byteLength + src.length,
    ttl: Math.max(1, cacheTtlMs),
  })
  // Finished results by content hash and geometry: what is cached can never be stale, so no TTL.
  // A data: URI string is ~1 byte per character.
  const prepared = new LRUCache<string, PreparedImage>({ max: Math.max(1, cacheEntries), maxSize: Math.max(1, cacheBytes), sizeCalculation: (image) => Math.max(1, image.dataUri.length) })
  // One fetch per URL at a time; entries live only while the fetch is pending.
  const inFlight = new Map<string, Promise<Source>>()
  // Bumped by clear(), so a fetch that started before clear() does not refill the cache.
  let generation = 0

  async function loadSource(src: string, assets: ReadonlyMap<string, AssetBytes> | undefined): Promise<Source> {
    if (src.startsWith('asset:')) return assetSource(src, assets)
    const cached = sources.get(src)
    if (cached !== undefined) return cached
    // A data: URI is decoded once and kept by its text, which never changes what it holds (no
    // TTL): rendering it again costs a Map lookup (a pointer compare for the same string object,
    // a compare of the text for an equal copy) instead of a scan, a base64 decode and a hash of
    // the bytes (1-2 ms for the reference card's 509 K-character photo URI). Its text counts
    // towards the bound with its bytes. A URI that fails to decode is not kept, so it fails the
    // same way every time.
    if (/^\s*data:/i.test(src)) {
      const started = generation
      const source = toSource(await fetchRemote(src, { policy, limits, accept: ACCEPT }))
      if (generation === started && keepPrepared) sources.set(src, source, { ttl: 0 })
      return source
    }
    const pending = inFlight.get(src)
    if (pending !== undefined) return pending

    const started = generation
    const fetching = fetchRemote(src, { policy, limits, accept: ACCEPT }).then((fetched) => {
      const source = toSource(fetched)
      if (generation === started && keepSources) sources.set(src, source)
      return source
    })
    inFlight.set(src, fetching)
    try {
      return await fetching
    } finally {
      inFlight.delete(src)
    }
  }

  return {
    async prepare(src, box, assets) {
      if (typeof src !== 'string') throw invalidArgument(`Expected src to be a URL string but received ${describeReceived(src)}`)
      const normalized = normalizeBox(box)
      const source = await loadSource(src, assets)

      // focus only matters for cover; leaving it out of other keys lets them share entries.
      const focusKey = normalized.fit === 'cover' ? `${normalized.focus.x},${normalized.focus.y}` : '-'
      const key = `${source.hash}|${normalized.width}x${normalized.height}|${normalized.fit}|${focusKey}|${normalized.scale}`
      const hit = prepared.get(key)
      if (hit !== undefined) return hit

      const format = sniffImageFormat(source.bytes)
      if (format === undefined) {
        const found = describeFound(source)
        throw new LithoError('ERR_IMAGE_INVALID', `${describeSource(src)} is not a supported image (found ${found})`, {
          details: { url: describeSource(src), reason: 'unsupported_format', found },
        })
      }

      const started = generation
      let image: PreparedImage
      try {
        image = Object.freeze(await resizeImage(source.bytes, format, normalized, limits.maxPixels))
      } catch (error) {
        if (!(error instanceof ImageRefusal)) throw error
        throw new LithoError('ERR_IMAGE_INVALID', `${describeSource(src)} ${error.message}`, {
          cause: error.cause,
          details: { url: describeSource(src), reason: error.reason, format, ...error.extra },
        })
      }
      if (generation === started && keepPrepared) prepared.set(key, image)
      return image
    },
    clear() {
      generation++
      sources.clear()
      prepared.clear()
    },
  }
}

/**
 * An attached asset as a source. Its key in the prepared cache is its id, not a hash of its bytes:
 * assets never change, so the decoded and resized pixels are reused by id without hashing.
 */
function assetSource(src: string, assets: ReadonlyMap<string, AssetBytes> | undefined): Source {
  const id = src.slice('asset:'.length)
  const asset = assets?.get(id)
  if (asset === undefined) {
    throw new LithoError('ERR_ASSET_NOT_FOUND', `${describeSource(src)} was not loaded: asset references are drawn by the Litho service, which loads them from its asset store`, { details: { id: id.slice(0, 64) } })
  }
  const bytes = Buffer.from(asset.bytes.buffer, asset.bytes.byteOffset, asset.bytes.byteLength)
  return { bytes, contentType: asset.contentType, hash: `asset:${id}` }
}

function toSource(fetched: { bytes: Buffer; contentType: string | undefined }): Source {
  // SHA-1 is a cache key here, not a signature: it only has to tell different images apart.
  const hash = createHash('sha1').update(fetched.bytes).digest('hex')
  return { bytes: fetched.bytes, contentType: fetched.contentType, hash }
}

const SUPPORTED_MIME_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/svg+xml'])

/**
 * What the bytes turned out to be. The declared type alone when it is not an image type we
 * support (`found text/html`); otherwise what the bytes look like, since the header lied.
 */
function describeFound(source: Source): string {
  const declared = source.contentType?.split(';')[0]?.trim().toLowerCase()
  // Server-supplied text: only echo it when it has the shape of a media type.
  const safeDeclared = declared !== undefined && /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,64}$/.test(declared) ? declared : undefined
  if (safeDeclared !== undefined && !SUPPORTED_MIME_TYPES.has(safeDeclared)) return safeDeclared
  const content = describeContent(source.bytes)
  return safeDeclared === undefined ? content : `${content} served as ${safeDeclared}`
}

function resolveImageLimits(limits: Partial<ImageLimits> | undefined): ImageLimits {
  if (limits !== undefined && (typeof limits !== 'object' || limits === null)) {
    throw invalidArgument(`Expected limits to be an object but received ${describeReceived(limits)}`)
  }
  const resolved = { ...DEFAULT_IMAGE_LIMITS, ...limits }
  for (const key of ['maxBytes', 'connectTimeoutMs', 'timeoutMs', 'maxRedirects', 'maxPixels'] as const) {
    const value = resolved[key]
    const min = key === 'maxRedirects' ? 0 : 1
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      throw invalidArgument(`Expected limits.${key} to be an integer >= ${min} but received ${describeReceived(value)}`)
    }
  }
  return resolved
}

function resolveCount(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalidArgument(`Expected ${name} to be an integer >= 0 but received ${describeReceived(value)}`)
  }
  return value
}
