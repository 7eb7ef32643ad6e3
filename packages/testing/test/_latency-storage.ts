// An unstorage memory driver with a delay per operation, like a network round trip: read-then-
// write stores race on it, so the concurrency cases of the suites can be shown to catch them.
import { createStorage, defineDriver, type Storage } from 'unstorage'
import memoryDriver from 'unstorage/drivers/memory'

/** unstorage memory with 1–4 ms per operation, like a network round trip. */
export function latencyStorage(): Storage {
  const inner = memoryDriver()
  const pause = () => new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 3))
  const latency = defineDriver(() => ({
    name: 'memory-with-latency',
    hasItem: async (key, options) => (await pause(), inner.hasItem(key, options)),
    getItem: async (key) => (await pause(), inner.getItem(key)),
    setItem: async (key, value, options) => (await pause(), inner.setItem?.(key, value, options)),
    removeItem: async (key, options) => (await pause(), inner.removeItem?.(key, options)),
    getKeys: async (base, options) => (await pause(), inner.getKeys(base, options)),
  }))
  return createStorage({ driver: latency({}) })
}
