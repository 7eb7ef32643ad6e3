/**
 * A meter in process memory: for tests, development and single-process tools. Counts are lost
 * when the process exits and are not shared between processes.
 *
 * Usage history is a map per subject from the start of each UTC hour to its net count; hours
 * are forgotten 400 days after they end (swept at most once an hour, during a consume).
 *
 * @module memory/meter
 */
import type { ConsumeRequest, ConsumeResult, HistoryRequest, Meter, MeterCapabilities, MeterKey, UsageHour } from '@litho/core/contracts'
import { HISTORY_RETENTION_MS, HOUR_MS, hourStart } from '../kit/hours.js'
import { assertConsumeRequest, assertHistoryRequest, assertMeterKey, assertRefundRequest, assertWholeNumber } from '../kit/validate.js'

/** Options of {@link memoryMeter}. */
export interface MemoryMeterOptions {
  /**
   * Seconds a window is kept after its `expiresAt`, so a refund of a job that straddled the end
   * of the window still finds its id. After that the window is forgotten (usage 0), which keeps
   * memory bounded in a long-running process. The same default as the Redis meter. The usage
   * history is kept apart and outlives the window: 400 days after each hour.
   * @default 604800 (7 days)
   */
  graceSeconds?: number
}

const ADAPTER_NAME = 'memory'
/** 7 days: see {@link MemoryMeterOptions.graceSeconds}. */
const DEFAULT_GRACE_SECONDS = 7 * 24 * 60 * 60
/** Expired windows are swept at most this often, so a consume stays O(1) on average. */
const SWEEP_INTERVAL_MS = 60_000
/** Hours past their retention are swept at most this often: they outlive windows by far. */
const HISTORY_SWEEP_INTERVAL_MS = HOUR_MS

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
  /** Usage history: subject → start of a UTC hour (epoch ms) → net units. Only counts ≥ 1 are kept. */
  const hours = new Map<string, Map<number, number>>()
  let lastSweep = Date.now()
  let lastHistorySweep = lastSweep

  /** Adds `delta` to the subject's hour, dropping the hour (and the subject) when it reaches 0. */
  const addToHour = (subject: string, hour: number, delta: number): void => {
    let counts = hours.get(subject)
    const count = (counts?.get(hour) ?? 0) + delta
    if (count > 0) {
      if (!counts) hours.set(subject, (counts = new Map()))
      counts.set(hour, count)
    } else if (counts) {
      counts.delete(hour)
      if (counts.size === 0) hours.delete(subject)
    }
  }

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
      if (now - lastHistorySweep >= HISTORY_SWEEP_INTERVAL_MS) {
        lastHistorySweep = now
        sweepHistory(hours, now)
      }
      const state = read(request, now)
      const usage = state?.usage ?? 0
      if (usage + request.amount > request.limit) return { granted: false, usage }
      const forgetAt = request.expiresAt.getTime() + graceMs
      const consumption: Consumption = { amount: request.amount, hour: hourStart((request.at ?? new Date(now)).getTime()) }
      addToHour(request.subject, consumption.hour, request.amount)
      if (state) {
        state.usage += request.amount
        state.ids.set(request.id, consumption)
        state.forgetAt = forgetAt
        return { granted: true, usage: state.usage }
      }
      windows.set(windowId(request), { usage: request.amount, ids: new Map([[request.id, consumption]]), forgetAt })
      return { granted: true, usage: request.amount }
    },

    async refund(request: MeterKey & { id: string }): Promise<boolean> {
      assertRefundRequest(ADAPTER_NAME, request)
      const state = read(request, Date.now())
      const consumption = state?.ids.get(request.id)
      if (state === undefined || consumption === undefined) return false
      state.ids.delete(request.id)
      state.usage -= consumption.amount
      addToHour(request.subject, consumption.hour, -consumption.amount)
      return true
    },

    async usage(key: MeterKey): Promise<number> {
      assertMeterKey(ADAPTER_NAME, key)
      return read(key, Date.now())?.usage ?? 0
    },

    async history(request: HistoryRequest): Promise<UsageHour[]> {
      assertHistoryRequest(ADAPTER_NAME, request)
      const from = hourStart(request.from.getTime())
      const to = request.to.getTime()
      const found: Array<[hour: number, count: number]> = []
      for (const [hour, count] of hours.get(request.subject) ?? []) if (hour >= from && hour < to) found.push([hour, count])
      return found.sort((a, b) => a[0] - b[0]).map(([hour, count]) => ({ hour: new Date(hour).toISOString(), count }))
    },

    async dispose(): Promise<void> {
      windows.clear()
      hours.clear()
    },
  }
}

// --- internal helpers ---

interface WindowState {
  usage: number
  /** Granted consumptions not yet refunded, by id. */
  ids: Map<string, Consumption>
  /** Epoch ms after which the window is forgotten: `expiresAt` plus the grace period. */
  forgetAt: number
}

/** A granted consumption: its units, and the hour of the history they were counted in. */
interface Consumption {
  amount: number
  /** Start of the UTC hour (epoch ms). */
  hour: number
}

/** Forgets every hour that ended more than the retention period before `now`. */
function sweepHistory(hours: Map<string, Map<number, number>>, now: number): void {
  const oldest = now - HISTORY_RETENTION_MS - HOUR_MS
  for (const [subject, counts] of hours) {
    for (const hour of counts.keys()) if (hour <= oldest) counts.delete(hour)
    if (counts.size === 0) hours.delete(subject)
  }
}

/** `/` is outside the alphabet of subjects and windows, so two different keys never collide. */
function windowId(key: MeterKey): string {
  return `${key.subject}/${key.window}`
}
