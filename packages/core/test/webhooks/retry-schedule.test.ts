// The retry schedule of webhook deliveries: the Standard Webhooks schedule in Svix's 8-attempt
// form (docs/webhooks.md, "Retry schedule").
import { describe, expect, it } from 'vitest'
import { WEBHOOK_RETRY_SCHEDULE_MS, nextWebhookDelay } from '../../src/webhooks/index.js'

const S = 1_000
const M = 60 * S
const H = 60 * M

describe('WEBHOOK_RETRY_SCHEDULE_MS', () => {
  it('is immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts over 27 h 35 min 5 s', () => {
    expect(WEBHOOK_RETRY_SCHEDULE_MS).toEqual([0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H])
    expect(WEBHOOK_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0)).toBe(27 * H + 35 * M + 5 * S)
  })

  it('is frozen', () => {
    expect(Object.isFrozen(WEBHOOK_RETRY_SCHEDULE_MS)).toBe(true)
    expect(() => (WEBHOOK_RETRY_SCHEDULE_MS as number[]).push(1)).toThrow(TypeError)
  })
})

describe('nextWebhookDelay', () => {
  it('gives the delay before attempt n+1, and null after the 8th attempt', () => {
    expect(nextWebhookDelay(0)).toBe(0)
    expect(nextWebhookDelay(1)).toBe(5 * S)
    expect(nextWebhookDelay(2)).toBe(5 * M)
    expect(nextWebhookDelay(3)).toBe(30 * M)
    expect(nextWebhookDelay(4)).toBe(2 * H)
    expect(nextWebhookDelay(5)).toBe(5 * H)
    expect(nextWebhookDelay(6)).toBe(10 * H)
    expect(nextWebhookDelay(7)).toBe(10 * H)
    expect(nextWebhookDelay(8)).toBeNull()
    expect(nextWebhookDelay(1_000)).toBeNull()
  })

  it('a receiver that always fails is attempted exactly 8 times, at the documented elapsed times', () => {
    const times: number[] = []
    let clock = 0
    for (let attempts = 0; ; attempts++) {
      const delay = nextWebhookDelay(attempts)
      if (delay === null) break
      clock += delay
      times.push(clock)
    }
    expect(times).toEqual([0, 5 * S, 5 * M + 5 * S, 35 * M + 5 * S, 2 * H + 35 * M + 5 * S, 7 * H + 35 * M + 5 * S, 17 * H + 35 * M + 5 * S, 27 * H + 35 * M + 5 * S])
  })

  it('takes a custom schedule', () => {
    expect(nextWebhookDelay(0, [100, 200])).toBe(100)
    expect(nextWebhookDelay(1, [100, 200])).toBe(200)
    expect(nextWebhookDelay(2, [100, 200])).toBeNull()
    expect(nextWebhookDelay(0, [])).toBeNull()
  })

  it('rejects bad arguments with TypeErrors', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1', undefined]) {
      expect(() => nextWebhookDelay(bad as never), String(bad)).toThrow(TypeError)
    }
    expect(() => nextWebhookDelay(0, [1, -1])).toThrow(/schedule/)
    expect(() => nextWebhookDelay(0, 'x' as never)).toThrow(/schedule/)
  })
})
