/**
 * The output cache: finished renders by output key (service/output-key), so an identical
 * request is answered without rendering. It saves time, never quota: the render operation meters
 * a hit exactly as a render (docs/performance.md, "Output cache").
 *
 * @module service/output-cache
 */
import { LRUCache } from 'lru-cache'
import type { Clock } from '../contracts/clock.js'
import type { FileStore } from '../contracts/file-store.js'
import type { RenderResult } from '../render/render-document.js'
import { readSharedEntry, sharedEntryKey, writeSharedEntry } from './shared-output-cache.js'

/**
 * A cached render: a render's result (bytes, content type, size, variation and the renderer's
 * warnings: text shrunk, cut…); ignored overrides are the request's own and never cached.
 */
export type OutputCacheEntry = RenderResult

/** A bounded store of finished renders. Create one with {@link createOutputCache}. */
export interface OutputCache {
  /** The entry under `key`, or `undefined` (never an error: a failing shared store is a miss). */
  get(key: string): Promise<OutputCacheEntry | undefined>
  /** Keeps `entry` under `key`, at most `ttlMs` when given. Never throws: caching is best effort. */
  set(key: string, entry: OutputCacheEntry, options?: { ttlMs?: number }): Promise<void>
  /** Hits and misses since creation, and the bytes held in memory. */
  stats(): { hits: number; misses: number; bytes: number; entries: number }
  /** Empties the memory tier (shared entries stay; they are keyed by content). */
  clear(): void
  /** The longest an entry of a design with remote images or fonts is kept (`remoteTtlMs`). */
  readonly remoteTtlMs: number
}

/** Options of {@link createOutputCache}. */
export interface OutputCacheOptions {
  /** Bytes of rendered output kept in memory (least recently used evicted first); 0 keeps none. @default 64 MiB */
  maxBytes?: number
  /**
   * Shares entries between instances through this file store, under `sharedPrefix`: a second
   * tier behind memory, read on a memory miss and written on every render. @default not shared
   */
  shared?: FileStore
  /** The key prefix of shared entries in the file store (segments of `[A-Za-z0-9._~-]`). @default 'output-cache' */
  sharedPrefix?: string
  /**
   * Shared slots: an entry goes to slot `hash mod sharedSlots` (replacing what was there), so
   * the file store never holds more than this many entries and needs no listing or sweep.
   * @default 4096
   */
  sharedSlots?: number
  /** Largest entry written to the shared store, in bytes (larger renders stay in memory only). @default 8 MiB */
  sharedMaxEntryBytes?: number
  /**
   * The longest the output of a design with http(s) images or fonts is kept: what such a URL
   * serves may change. Keep it at most the renderer's `imageCacheTtlMs`. @default 10 minutes (the image cache's default)
   */
  remoteTtlMs?: number
  /** Time for the expiry of entries with a TTL. @default the system clock */
  clock?: Clock
  /** Called when the shared store fails (the request goes on as a miss). @default ignored */
  onError?: (error: unknown) => void
}

/** The default memory budget: about 300 JPEG cards of 1080x1080, or 70 PNGs of them. */
export const DEFAULT_OUTPUT_CACHE_BYTES = 64 * 1024 * 1024

/** The default of `remoteTtlMs`: the image cache's default TTL (`imageCacheTtlMs` of the renderer). */
export const DEFAULT_REMOTE_TTL_MS = 10 * 60 * 1000

/** Per-entry bookkeeping counted on top of the bytes (the metadata object and the LRU's own). */
const ENTRY_OVERHEAD_BYTES = 512

/**
 * Creates an output cache: memory (LRU, bounded in bytes), optionally backed by a shared file
 * store so that several instances serve each other's renders.
 *
 * @throws TypeError `ERR_INVALID_ARG_VALUE` for a negative or fractional size, or a bad prefix.
 * @example
 * const outputCache = createOutputCache({ maxBytes: 128 * 1024 * 1024 })
 * await renderDesign({ ...services, outputCache }, request) // a repeat is served from memory
 */
export function createOutputCache(options: OutputCacheOptions = {}): OutputCache {
  const maxBytes = count('maxBytes', options.maxBytes, DEFAULT_OUTPUT_CACHE_BYTES)
  const slots = count('sharedSlots', options.sharedSlots, 4096)
  const sharedMaxEntryBytes = count('sharedMaxEntryBytes', options.sharedMaxEntryBytes, 8 * 1024 * 1024)
  const remoteTtlMs = count('remoteTtlMs', options.remoteTtlMs, DEFAULT_REMOTE_TTL_MS)
  const prefix = options.sharedPrefix ?? 'output-cache'
  if (!/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(prefix) || prefix.split('/').some((s) => s === '.' || s === '..'))
    throw Object.assign(new TypeError(`Expected option sharedPrefix to be path segments of [A-Za-z0-9._~-] but received ${JSON.stringify(prefix)}`), { code: 'ERR_INVALID_ARG_VALUE' })
  if (options.shared !== undefined && slots === 0) throw Object.assign(new TypeError('Expected option sharedSlots to be at least 1 with a shared store but received 0'), { code: 'ERR_INVALID_ARG_VALUE' })
  const now = () => (options.clock ?? systemClock).now().getTime()
  const report = options.onError ?? (() => {})
  const shared = options.shared
  // lru-cache reads 0 as "no bound", so a budget of 0 means no memory tier at all.
  const memory =
    maxBytes > 0
      ? new LRUCache<string, OutputCacheEntry>({ maxSize: maxBytes, sizeCalculation: (entry) => entry.bytes.byteLength + ENTRY_OVERHEAD_BYTES })
      : undefined
  let hits = 0
  let misses = 0

  return {
    async get(key) {
      const held = memory?.get(key)
      if (held !== undefined) {
        hits++
        return held
      }
      if (shared !== undefined) {
        try {
          const found = await readSharedEntry(shared, sharedEntryKey(prefix, key, slots), key, now())
          if (found !== undefined) {
            hits++
            memory?.set(key, found.entry, found.expiresAt === null ? {} : { ttl: Math.max(1, found.expiresAt - now()) })
            return found.entry
          }
        } catch (error) {
          report(error)
        }
      }
      misses++
      return undefined
    },
    async set(key, entry, setOptions = {}) {
      const ttl = setOptions.ttlMs
      if (ttl !== undefined && ttl <= 0) return
      memory?.set(key, entry, ttl === undefined ? {} : { ttl })
      if (shared === undefined || entry.bytes.byteLength > sharedMaxEntryBytes) return
      try {
        await writeSharedEntry(shared, sharedEntryKey(prefix, key, slots), key, entry, ttl === undefined ? null : now() + ttl)
      } catch (error) {
        report(error)
      }
    },
    stats: () => ({ hits, misses, bytes: memory?.calculatedSize ?? 0, entries: memory?.size ?? 0 }),
    clear: () => memory?.clear(),
    remoteTtlMs,
  }
}

const systemClock: Clock = { now: () => new Date() }

function count(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < 0) throw Object.assign(new TypeError(`Expected option ${name} to be a whole number ≥ 0 but received ${JSON.stringify(value)}`), { code: 'ERR_INVALID_ARG_VALUE' })
  return value
}
