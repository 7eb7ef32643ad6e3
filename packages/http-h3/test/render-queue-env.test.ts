import { describe, expect, it } from 'vitest'
import { ConfigError } from '../src/backends.js'
import { renderQueueFromEnv } from '../src/server.js'

describe('LITHO_RENDER_QUEUE', () => {
  it('serve › unset keeps the pool default; a number is the queue, from 0 to 100000', () => {
    expect(renderQueueFromEnv({})).toBeUndefined()
    expect(renderQueueFromEnv({ LITHO_RENDER_QUEUE: '' })).toBeUndefined()
    expect(renderQueueFromEnv({ LITHO_RENDER_QUEUE: '0' })).toBe(0)
    expect(renderQueueFromEnv({ LITHO_RENDER_QUEUE: '128' })).toBe(128)
    expect(renderQueueFromEnv({ LITHO_RENDER_QUEUE: '100000' })).toBe(100_000)
  })

  it.each(['-1', '1.5', 'lots', '100001', '0000000'])('serve › %s is a ConfigError naming the variable', (value) => {
    let error: unknown
    try {
      renderQueueFromEnv({ LITHO_RENDER_QUEUE: value })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toBe(`LITHO_RENDER_QUEUE: expected a whole number of renders from 0 to 100000, received ${JSON.stringify(value)}`)
  })
})
