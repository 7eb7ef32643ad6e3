// Refunds the meter refused before a stop are given back when `litho serve` starts again on the
// same data directory (and every reconciliation interval after that), exactly once.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { quotaWindow, stateStoreRefundLedger } from '@litho/core'
import { fsAuthStateStore } from '@litho/storage-adapters/auth-state-store'
import { fsMeter } from '@litho/storage-adapters'
import { afterAll, expect, it } from 'vitest'
import { startLithoServer, type LithoServer } from '../src/server.js'

const dataDir = mkdtempSync(join(tmpdir(), 'litho-serve-refunds-'))
const running: LithoServer[] = []
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()))
  rmSync(dataDir, { recursive: true, force: true })
})

const waitFor = async (check: () => Promise<boolean>): Promise<boolean> => {
  for (let round = 0; round < 200; round++) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return false
}

it('serve › a refund recorded while the meter was down is given back at start, once; one recorded later at the next interval', async () => {
  const window = quotaWindow(new Date())
  // Before the start: two renders consumed, and their refunds written down as failed.
  const meter = fsMeter({ base: join(dataDir, 'meter') })
  const state = fsAuthStateStore({ base: join(dataDir, 'auth') })
  const ledger = stateStoreRefundLedger(state)
  for (const id of ['r_down1', 'r_down2']) {
    await meter.consume({ subject: 'u_refund', window: window.id, amount: 1, limit: 100, id, expiresAt: window.resetAt })
    await ledger.record({ subject: 'u_refund', window: window.id, id, operation: 'render', recordedAt: new Date().toISOString(), tries: 3, lastError: 'connection refused' })
  }
  await meter.consume({ subject: 'u_refund', window: window.id, amount: 1, limit: 100, id: 'r_kept', expiresAt: window.resetAt })
  await meter.dispose?.()

  const lines: string[] = []
  const server = await startLithoServer({ dataDir, port: 0, threads: 1, log: (line) => lines.push(line), refundReconcileIntervalMs: 100 })
  running.push(server)
  const usage = () => server.backends.meter.usage({ subject: 'u_refund', window: window.id })
  expect(await waitFor(async () => (await usage()) === 1)).toBe(true)
  expect(await ledger.list()).toEqual([])
  // The line is written once the run is over, which may be just after the usage changes.
  expect(await waitFor(async () => lines.includes('refunds reconciled: 2 given back, 0 already settled, 0 still pending')), lines.join('\n')).toBe(true)

  // Recorded while serving (another instance, say): the periodic run gives it back.
  await ledger.record({ subject: 'u_refund', window: window.id, id: 'r_kept', operation: 'bulk', recordedAt: new Date().toISOString(), tries: 3, lastError: 'timeout' })
  expect(await waitFor(async () => (await usage()) === 0)).toBe(true)
  expect(await waitFor(async () => (await ledger.list()).length === 0)).toBe(true)
  // Nothing is given back twice: more intervals pass, usage stays at 0 and no line repeats.
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(await usage()).toBe(0)
  expect(await waitFor(async () => lines.filter((line) => line.startsWith('refunds reconciled')).length === 2)).toBe(true)
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(lines.filter((line) => line.startsWith('refunds reconciled')).length).toBe(2)
  await state.dispose?.()
}, 60_000)
