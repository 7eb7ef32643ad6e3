import { runMeterConformance } from '@litho/testing/meter'
import { describe, expect, it } from 'vitest'
import { memoryMeter } from '../src/memory.js'

runMeterConformance({ name: 'memory', create: () => memoryMeter() })

describe('memory meter', () => {
  const request = (fields: { id: string; expiresAt: Date }) => ({ subject: 'user-1', window: '2026-11', amount: 1, limit: 10, ...fields })

  it('memory › every call gives a new, empty meter', async () => {
    const first = memoryMeter()
    await first.consume(request({ id: 'a', expiresAt: new Date(Date.now() + 60_000) }))
    expect(await memoryMeter().usage({ subject: 'user-1', window: '2026-11' })).toBe(0)
  })

  it('memory › a window is forgotten after expiresAt plus the grace period', async () => {
    const meter = memoryMeter({ graceSeconds: 60 })
    const key = { subject: 'user-1', window: '2026-11' }
    // Ended 30 s ago: within the grace period, still counted and refundable.
    await meter.consume(request({ id: 'recent', expiresAt: new Date(Date.now() - 30_000) }))
    expect(await meter.usage(key)).toBe(1)
    const old = { subject: 'user-2', window: '2026-10' }
    // Ended 2 minutes ago: past the grace period, forgotten at the next read.
    await meter.consume({ ...request({ id: 'old', expiresAt: new Date(Date.now() - 120_000) }), ...old })
    expect(await meter.usage(old)).toBe(0)
    expect(await meter.refund({ ...old, id: 'old' })).toBe(false)
  })

  it('memory › rejects an invalid graceSeconds with a TypeError at once', () => {
    expect(() => memoryMeter({ graceSeconds: -1 })).toThrow(expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE' }))
    expect(() => memoryMeter({ graceSeconds: '60' as unknown as number })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }))
  })
})
