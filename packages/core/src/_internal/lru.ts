/**
 * A small least-recently-used cache bounded both by entry count and by total size.
 *
 * @module render/images/lru-cache
 */

/** Options of {@link createLruCache}. */
export interface LruCacheOptions<V> {
  /** Most entries kept. */
  maxEntries: number
  /** Most total size kept, as measured by `sizeOf`. */
  maxSize: number
  /** The size of one value (bytes, for buffers and strings). */
  sizeOf: (value: V) => number
}

/** A bounded LRU map. */
export interface LruCache<K, V> {
  /** The value for `key`, marking it most recently used. */
  get(key: K): V | undefined
  /** Stores `value`; a value larger than `maxSize` on its own is not stored at all. */
  set(key: K, value: V): void
  clear(): void
  /** Entries currently held. */
  readonly size: number
  /** Total size currently held. */
  readonly totalSize: number
}

/**
 * Creates an LRU cache. A `Map` keeps insertion order, so re-inserting on read makes the first
 * key the least recently used one.
 *
 * @example
 * const cache = createLruCache<string, Buffer>({ maxEntries: 64, maxSize: 64e6, sizeOf: (b) => b.byteLength })
 */
export function createLruCache<K, V>(options: LruCacheOptions<V>): LruCache<K, V> {
  const entries = new Map<K, { value: V; size: number }>()
  let totalSize = 0

  function remove(key: K): void {
    const entry = entries.get(key)
    if (entry === undefined) return
    entries.delete(key)
    totalSize -= entry.size
  }

  return {
    get(key) {
      const entry = entries.get(key)
      if (entry === undefined) return undefined
      entries.delete(key)
      entries.set(key, entry)
      return entry.value
    },
    set(key, value) {
      remove(key)
      const size = options.sizeOf(value)
      if (size > options.maxSize || options.maxEntries < 1) return
      entries.set(key, { value, size })
      totalSize += size
      for (const oldest of entries.keys()) {
        if (entries.size <= options.maxEntries && totalSize <= options.maxSize) break
        remove(oldest)
      }
    },
    clear() {
      entries.clear()
      totalSize = 0
    },
    get size() {
      return entries.size
    },
    get totalSize() {
      return totalSize
    },
  }
}
