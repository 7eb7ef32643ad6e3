/**
 * A meter in process memory: for tests, development and single-process tools. Counts are lost
 * when the process exits and are not shared between processes.
 *
 * @module memory
 */
import type { ConsumeRequest, ConsumeResult, Meter, MeterCapabilities, MeterKey } from '@litho/core/contracts'
import { assertConsumeRequest, assertMeterKey, assertRefundRequest, assertWholeNumber } from './_validate.js'

/** Options of {@link memoryMeter}. */
export interface MemoryMeterOptions {
  /**
   * Seconds a window is kept after its `expiresAt`, so a refund of a job that straddled the end
   * of the window still finds its id. After that the window is forgotten (usage 0), which keeps
   * memory bounded in a long-running process. The same default as the Redis meter.
   * @default 604800 (7 days)
   */
  graceSeconds?: number
}

const ADAPTER_NAME = 'memory'
/** 7 days: see {@link MemoryMeterOptions.graceSeconds}. */
const DEFAULT_GRACE_SECONDS = 7 * 24 * 60 * 60
/** Expired windows are swept at most this often, so a consume stays O(1) on average. */
const SWEEP_INTERVAL_MS = 60_000

/**
 * Creates a meter that counts in memory; every call gives a new, empty meter.
 *
 * Atomic because each operation runs synchronously between two awaits (one JavaScript thread).
 *
 * @example
 * const meter = memoryMeter()
 * await meter.consume({ subject: 'user-1', window: '2026-11', amount: 1, limit: 100, id: 'render-1', expiresAt: new Date('2026-12-01') })
 */
export function memoryMeter(options: MemoryMeterOptions = {}): Meter {
  const graceSeconds = options.graceSeconds ?? DEFAULT_GRACE_SECONDS
  assertWholeNumber(ADAPTER_NAME, 'graceSeconds', graceSeconds, 0)
  const graceMs = graceSeconds * 1000
  const windows = new Map<string, WindowState>()
  let lastSweep = Date.now()

  /** The live state of a window, forgetting it first if it is past its grace period. */
  const read = (key: MeterKey, now: number): WindowState | undefined => {
    const id = windowId(key)
    const state = windows.get(id)
    if (state && state.forgetAt <= now) {
      windows.delete(id)
      return undefined
    }
    return state
  }

  const capabilities: MeterCapabilities = { persistent: false, shared: false }
  return {
    name: ADAPTER_NAME,
    capabilities,

    async consume(request: ConsumeRequest): Promise<ConsumeResult> {
      assertConsumeRequest(ADAPTER_NAME, request)
      const now = Date.now()
      if (now - lastSweep >= SWEEP_INTERVAL_MS) {
        lastSweep = now
        for (const [id, state] of windows) if (state.forgetAt <= now) windows.delete(id)
      }
      const state = read(request, now)
      const usage = state?.usage ?? 0
      if (usage + request.amount > request.limit) return { granted: false, usage }
      const forgetAt = request.expiresAt.getTime() + graceMs
      if (state) {
        state.usage += request.amount
        state.ids.set(request.id, request.amount)
        state.forgetAt = forgetAt
        return { granted: true, usage: state.usage }
      }
      windows.set(windowId(request), { usage: request.amount, ids: new Map([[request.id, request.amount]]), forgetAt })
      return { granted: true, usage: request.amount }
    },

    async refund(request: MeterKey & { id: string }): Promise<boolean> {
      assertRefundRequest(ADAPTER_NAME, request)
      const state = read(request, Date.now())
      const amount = state?.ids.get(request.id)
      if (state === undefined || amount === undefined) return false
      state.ids.delete(request.id)
      state.usage -= amount
      return true
    },

    async usage(key: MeterKey): Promise<number> {
      assertMeterKey(ADAPTER_NAME, key)
      return read(key, Date.now())?.usage ?? 0
    },

    async dispose(): Promise<void> {
      windows.clear()
    },
  }
}

// --- internal helpers ---

interface WindowState {
  usage: number
  /** Granted consumptions not yet refunded: id → amount. */
  ids: Map<string, number>
  /** Epoch ms after which the window is forgotten: `expiresAt` plus the grace period. */
  forgetAt: number
}

/** `/` is outside the alphabet of subjects and windows, so two different keys never collide. */
function windowId(key: MeterKey): string {
  return `${key.subject}/${key.window}`
}
