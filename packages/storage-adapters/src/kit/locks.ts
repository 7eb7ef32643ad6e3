/**
 * The one lock registry of the package: per-key serialization of async tasks, a promise chain
 * per key. Three scopes, one mechanism:
 * - {@link createLock}: a lock of one store instance (writes to one record never interleave);
 * - {@link directoryLock}: a lock shared by everything of one kind on one directory in this
 *   process (the fs meter, the fs job queue, the fs auth state store), so two instances over one
 *   directory are serialized together. Held on `globalThis` under a `Symbol.for` key, so that
 *   two copies of this package in one process share it too;
 * - {@link storageLock}: a lock shared by every store over one unstorage instance.
 * Internal: not exported from the package.
 *
 * @module kit/locks
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

const kRegistry = Symbol.for('litho.storage-adapters.locks')
/** The process-wide chains of {@link directoryLock}. */
const processLock = createLock(((globalThis as Record<symbol, unknown>)[kRegistry] ??= new Map()) as Map<string, Promise<void>>)

/**
 * The lock of `kind` (e.g. `fs-meter`) on the resolved directory `root`, shared by this whole
 * process. NUL never occurs in a path, so kind, directory and key cannot run into each other.
 */
export function directoryLock(kind: string, root: string): WithLock {
  return (key, task) => processLock(`${kind}\u0000${root}\u0000${key}`, task)
}

const storageLocks = new WeakMap<object, WithLock>()

/** The lock shared by every store over the unstorage instance `storage`. */
export function storageLock(storage: object): WithLock {
  let withLock = storageLocks.get(storage)
  if (withLock === undefined) {
    withLock = createLock()
    storageLocks.set(storage, withLock)
  }
  return withLock
}
