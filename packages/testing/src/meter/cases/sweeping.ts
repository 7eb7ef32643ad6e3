/**
 * Meter cases: windows that never end, and sweeping.
 *
 * @module meter/cases/sweeping
 */
import { expect } from 'vitest'
import { DAY, type MeterCase } from '../meter-kit.js'

/** The meter cases of this topic: windows that never end, and sweeping. */
export const sweepingCases: readonly MeterCase[] = [
  {
    title: 'meter › a window that never ends (expiresAt 9999-01-01) counts amounts up to 2^53 - 1 exactly, and refunds them',
    async run({ meter, key, request }) {
      // How the service counts stored bytes, designs and keys (quota/meter-storage, quota/owned-count).
      const k = key('forever', 'bytes')
      const forever = new Date(Date.UTC(9999, 0, 1))
      const big = request(k, { amount: 10_000_000_007, limit: Number.MAX_SAFE_INTEGER, expiresAt: forever })
      expect(await meter.consume(big)).toEqual({ granted: true, usage: 10_000_000_007 })
      expect(await meter.consume(request(k, { amount: 1, limit: 10_000_000_007, expiresAt: forever })), 'exactly at the limit').toEqual({ granted: false, usage: 10_000_000_007 })
      const rest = Number.MAX_SAFE_INTEGER - 10_000_000_007
      expect(await meter.consume(request(k, { amount: rest, limit: Number.MAX_SAFE_INTEGER, expiresAt: forever }))).toEqual({ granted: true, usage: Number.MAX_SAFE_INTEGER })
      expect(await meter.refund({ ...k, id: big.id })).toBe(true)
      expect(await meter.usage(k)).toBe(rest)
    },
  },
  {
    title: 'meter › sweep forgets the windows past their expiry and grace, and keeps the others',
    needsMethod: 'sweep',
    async run({ meter, key, request }) {
      const now = Date.now()
      // Ended 500 days ago: past any grace period a meter keeps (the history is kept apart).
      const old = key('sweep-old', 'sweep-old')
      const live = key('sweep-live', 'sweep-live')
      const gone = request(old, { amount: 2, expiresAt: new Date(now - 500 * DAY) })
      await meter.consume(gone)
      await meter.consume(request(live, { amount: 3 }))
      expect(await meter.sweep!(new Date(now))).toBeGreaterThanOrEqual(1)
      expect(await meter.usage(old), 'the old window is forgotten').toBe(0)
      expect(await meter.refund({ ...old, id: gone.id }), 'and its ids').toBe(false)
      expect(await meter.usage(live)).toBe(3)
      await expect(meter.sweep!(new Date(Number.NaN)), 'an invalid now').rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' })
    },
  },
]
