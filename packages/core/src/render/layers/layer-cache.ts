/**
 * The static-layer cache (docs/performance.md): rasterized static layers of designs, kept as
 * premultiplied RGBA pixels in a per-thread LRU bounded in bytes. Keys are content hashes of
 * everything a layer's pixels depend on, so a changed design, variation, size, font or image
 * never reuses a stale layer; entries nobody asks for age out of the LRU.
 *
 * @module render/layers/layer-cache
 */
import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import { describeReceived, invalidArgument } from '../../_internal/argument-error.js'
import type { Component, Paint } from '../../design/schema.js'
import type { PreparedImage } from '../images/index.js'
import type { Prepared } from '../layout-pass.js'
import type { ResolvedDocument } from '../resolve-document.js'
import type { DetectedBox } from '../component-layout.js'
import type { RenderWarning } from '../types.js'

/** One rasterized static layer: a rectangle of the canvas and what laying it out reported. */
export interface CachedLayer {
  x: number
  y: number
  width: number
  height: number
  /**
   * Premultiplied RGBA, `width × height × 4` bytes; a bottom layer drawn on an opaque
   * background is RGB, `width × height × 3` bytes (every pixel of it is opaque).
   */
  pixels: Buffer
  /** text_overflow and text_cut of its texts, in paint order. */
  layoutWarnings: RenderWarning[]
  /** Font warnings its layout raised (glyphs no chosen face has). */
  fontWarnings: RenderWarning[]
  /** The box of each of its components as laid out, by key (a render asked for its layout reads them). */
  boxes?: ReadonlyMap<string, DetectedBox>
}

/** A bounded cache of static layers (one per render thread). */
export interface LayerCache {
  /** The bound, in bytes of pixels. */
  readonly maxBytes: number
  /** Whether a layer of `bytes` bytes of pixels can be kept at all. */
  fits(bytes: number): boolean
  get(key: string): CachedLayer | undefined
  /** Stores a layer; one larger than the whole bound is not kept. */
  set(key: string, layer: CachedLayer): void
  /**
   * Records that `keys` serve `version` of stored design `designId`. When a design shows up
   * with another version (it was updated or published), the layers its older version used are
   * dropped at once instead of waiting to age out.
   */
  track(designId: string, version: string, keys: readonly string[]): void
  /**
   * Whether a layer that changes with the overrides (a dynamic run) is worth keeping: true when
   * `key` was asked for before. The first sighting is only remembered (in a bounded set of keys),
   * so one-off texts never push static layers out of the cache; text that repeats is kept.
   */
  admit(key: string): boolean
  /** Bytes held now. */
  bytes(): number
  clear(): void
}

/** The default bound per render thread: a dozen 1080x1080 layers, or three 2160x2160 ones. */
export const DEFAULT_LAYER_CACHE_BYTES = 64 * 1024 * 1024

// Designs whose layer keys are tracked for eviction on update (a few hundred bytes each), and
// the keys kept per design before those the LRU already dropped are forgotten.
const TRACKED_DESIGNS = 2048
const MAX_KEYS_PER_DESIGN = 64
// Keys of dynamic runs seen once (a SHA-1 each): a repeat within this many renders is kept.
const SEEN_DYNAMIC_KEYS = 4096

// What an entry costs besides its pixels (the object, its warnings, the key).
const ENTRY_OVERHEAD = 512

/**
 * Checks the `layerCacheBytes` option: the default when omitted.
 *
 * @throws TypeError ERR_INVALID_ARG_VALUE when it is not an integer >= 0.
 * @example resolveLayerCacheBytes(undefined) // 67108864
 */
export function resolveLayerCacheBytes(value: unknown): number {
  if (value === undefined) return DEFAULT_LAYER_CACHE_BYTES
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw invalidArgument(`Expected layerCacheBytes to be an integer >= 0 but received ${describeReceived(value)}`)
  return value
}

/**
 * Creates a layer cache bounded to `layerCacheBytes` (default 64 MiB), or `undefined` for 0 (off).
 *
 * @throws TypeError ERR_INVALID_ARG_VALUE when `layerCacheBytes` is not an integer >= 0.
 * @example createLayerCache(32 * 1024 * 1024)?.fits(1080 * 1080 * 4) // true
 */
export function createLayerCache(layerCacheBytes?: number): LayerCache | undefined {
  const maxBytes = resolveLayerCacheBytes(layerCacheBytes)
  if (maxBytes === 0) return undefined
  const lru = new LRUCache<string, CachedLayer>({ maxSize: maxBytes, sizeCalculation: (layer) => layer.pixels.byteLength + ENTRY_OVERHEAD })
  // The version each stored design was last rendered at, and the layer keys it used.
  const designs = new LRUCache<string, { version: string; keys: Set<string> }>({ max: TRACKED_DESIGNS })
  const seen = new LRUCache<string, true>({ max: SEEN_DYNAMIC_KEYS })
  return {
    maxBytes,
    fits: (bytes) => bytes + ENTRY_OVERHEAD <= maxBytes,
    get: (key) => lru.get(key),
    set(key, layer) {
      if (layer.pixels.byteLength + ENTRY_OVERHEAD <= maxBytes) lru.set(key, layer)
    },
    track(designId, version, keys) {
      let owned = designs.get(designId)
      if (owned && owned.version !== version) {
        for (const key of owned.keys) if (!keys.includes(key)) lru.delete(key)
        owned = undefined
      }
      owned ??= { version, keys: new Set() }
      for (const key of keys) owned.keys.add(key)
      // Keys of layers the LRU has dropped since: forget them, so the set stays small.
      if (owned.keys.size > MAX_KEYS_PER_DESIGN) for (const key of owned.keys) if (!lru.has(key)) owned.keys.delete(key)
      designs.set(designId, owned)
    },
    admit(key) {
      if (seen.has(key) || lru.has(key)) return true
      seen.set(key, true)
      return false
    },
    bytes: () => lru.calculatedSize,
    clear() {
      lru.clear()
      designs.clear()
      seen.clear()
    },
  }
}

// A digest per prepared image object: the image loader hands out the same frozen object while it
// caches it, so each image is hashed once, not on every render.
const digests = new WeakMap<PreparedImage, string>()

function imageDigest(image: PreparedImage | undefined): string {
  if (!image) return 'none'
  let digest = digests.get(image)
  if (digest === undefined) {
    digest = createHash('sha1').update(image.dataUri).digest('base64')
    digests.set(image, digest)
  }
  return digest
}

// A digest per custom font file, hashed once per Buffer: the font cache hands out the same Buffer
// while it keeps the file, and a file fetched again (after its TTL) is a new Buffer.
const fontDigests = new WeakMap<object, string>()

function fontDigest(data: Buffer | ArrayBuffer): string {
  let digest = fontDigests.get(data)
  if (digest === undefined) {
    digest = createHash('sha1').update(data instanceof ArrayBuffer ? new Uint8Array(data) : data).digest('base64')
    fontDigests.set(data, digest)
  }
  return digest
}

// Bumped when what a layer's pixels depend on changes shape (a new field the key must cover).
const KEY_VERSION = 2

/**
 * The cache key of a static layer: a hash of its components, with each image's source replaced
 * by the digest of the pixels it was prepared to (so a remote image that changed after the
 * image cache's TTL makes a new key) and each text's chosen font faces and fitted size, plus
 * the canvas (size, scale, offsets), the background it is drawn on and the design's font files
 * (by content).
 *
 * @example layerKey('below', resolved, plan.below, resolved.document.background, prepared) // 'q1w…=' (SHA-1, base64)
 */
export function layerKey(part: 'below' | 'dynamic' | 'above', resolved: ResolvedDocument, components: readonly Component[], background: Paint | undefined, prepared: Prepared): string {
  const doc = resolved.document
  const replacer = (_: string, value: unknown): unknown => {
    if (value === null || typeof value !== 'object' || !('type' in value) || !('key' in value)) return value
    const c = value as Component
    if (c.type === 'image') return { ...c, src: imageDigest(prepared.images.get(c.key)) }
    if (c.type === 'text') return { ...c, faces: prepared.fonts.familyFor(c.fontFamily), fitted: prepared.fittedSizes.get(c.key) ?? null }
    return value
  }
  const canvas = [resolved.width, resolved.height, doc.width, doc.height, resolved.scale, resolved.offsetX, resolved.offsetY]
  // The design's own faces by content, so a font file changed at its URL makes a new key once
  // the font cache fetches it again; built-in faces never change within a process.
  const families = new Set(doc.fonts.map((face) => face.family))
  const faces = prepared.fonts.fonts.filter((font) => families.has(font.name)).map((font) => [font.name, font.weight, font.style, fontDigest(font.data)])
  const text = JSON.stringify([KEY_VERSION, part, canvas, background ?? null, faces, components], replacer)
  return createHash('sha1').update(text).digest('base64')
}
