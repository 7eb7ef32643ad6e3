import { describe, expect, it } from 'vitest'
import { ConfigError } from '../src/backends.js'
import { layerCacheBytesFromEnv } from '../src/server.js'

describe('LITHO_LAYER_CACHE_MB', () => {
  it('serve › unset keeps the renderer default; megabytes become bytes; 0 turns the cache off', () => {
    expect(layerCacheBytesFromEnv({})).toBeUndefined()
    expect(layerCacheBytesFromEnv({ LITHO_LAYER_CACHE_MB: '' })).toBeUndefined()
    expect(layerCacheBytesFromEnv({ LITHO_LAYER_CACHE_MB: '128' })).toBe(128 * 1024 * 1024)
    expect(layerCacheBytesFromEnv({ LITHO_LAYER_CACHE_MB: '0' })).toBe(0)
  })

  it.each(['-1', '1.5', 'lots', '65537'])('serve › %s is a ConfigError naming the variable', (value) => {
    const error = (() => {
      try {
        return layerCacheBytesFromEnv({ LITHO_LAYER_CACHE_MB: value })
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toBe(`LITHO_LAYER_CACHE_MB: expected a whole number of megabytes from 0 to 65536, received ${JSON.stringify(value)}`)
  })
})
