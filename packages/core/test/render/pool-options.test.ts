// createRenderPool checks its options at once, although piscina (which starts the threads) loads
// only after it returns: a bad option is the caller's bug, thrown by the call, not a render failure later.
import { describe, expect, it } from 'vitest'
import { createRenderPool } from '../../src/render/pool.js'

describe('createRenderPool options', () => {
  it('refuses a thread count that is not an integer, synchronously', () => {
    expect(() => createRenderPool({ threads: 1.5 })).toThrow(/threads to be an integer >= 1 but received 1\.5/)
    expect(() => createRenderPool({ threads: Number.NaN })).toThrow(/threads.*NaN/)
  })

  it('refuses a negative or fractional maxQueue, synchronously, and names the value', () => {
    expect(() => createRenderPool({ threads: 1, maxQueue: -1 })).toThrow(/maxQueue to be an integer >= 0 but received -1/)
    expect(() => createRenderPool({ threads: 1, maxQueue: 2.5 })).toThrow(/maxQueue.*2\.5/)
  })

  it('refuses a bad layerCacheBytes before any thread starts', () => {
    expect(() => createRenderPool({ threads: 1, layerCacheBytes: -1 })).toThrow(/layerCacheBytes.*-1/)
  })
})
