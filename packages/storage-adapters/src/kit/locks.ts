/**
 * Per-key serialization of async tasks: a promise chain per key. The stores use one registry
 * per instance (writes to one record never interleave); the fs meter one per process. Internal:
 * not exported.
 *
 * @module _lock
 */

/** Runs `task` once every task queued before it on `key` has settled; resolves as `task` does. */
export type WithLock = <T>(key: string, task: () => Promise<T>) => Promise<T>

/** Returns a {@link WithLock} over `registry` (a new one unless given, e.g. to share it). */
export function createLock(registry: Map<string, Promise<void>> = new Map()): WithLock {
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const previous = registry.get(key) ?? Promise.resolve()
    const result = previous.then(task)
    // The chain goes on whether the task fulfils or rejects.
    const tail = result.then(
      () => undefined,
      () => undefined,
    )
    registry.set(key, tail)
    // Drop the entry once the chain is idle, so the registry does not grow with every key.
    void tail.then(() => {
      if (registry.get(key) === tail) registry.delete(key)
    })
    return result
  }
}
