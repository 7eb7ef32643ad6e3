/**
 * The refund ledger: where a refund the meter could not take is written down until
 * {@link reconcileRefunds} gives it back. It lives in an {@link AuthStateStore} because that
 * port exists on every backend (memory, fs, Redis) and is not the meter: the meter being down
 * is the usual reason a refund fails.
 *
 * Layout: one key holds every pending refund (a JSON object keyed by `subject|window|id`); a
 * second key is a short-lived lock taken with the store's atomic `add`, so instances sharing
 * a backend never lose each other's entries. Pending refunds are rare (they exist only while
 * a meter is failing), so one key is small; it is bounded by {@link MAX_PENDING_REFUNDS}.
 *
 * @module quota/refund-ledger
 */
import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { AuthStateStore } from '../contracts/auth-state-store.js'
import { LithoError } from '../errors.js'

/** A refund that failed and waits for reconciliation. */
export interface PendingRefund {
  /** The meter key and consumption id, as given to `Meter.refund`. */
  subject: string
  window: string
  id: string
  /** What consumed it: `render`, `bulk`, `export` or `export-job`. */
  operation: string
  /** ISO 8601: when it was first written down. */
  recordedAt: string
  /** Refund attempts that failed so far (the first call's retries included). */
  tries: number
  /** The last failure's message. */
  lastError: string
}

/**
 * Stores pending refunds. `record` of an entry already there keeps one entry (tries added up);
 * `settle` removes entries by key; `list` returns every entry (oldest first).
 */
export interface RefundLedger {
  record(refund: PendingRefund): Promise<void>
  list(): Promise<PendingRefund[]>
  /** Removes the entries of these keys ({@link refundKey}); updates the others given in `retried`. */
  settle(settled: readonly string[], retried?: readonly PendingRefund[]): Promise<void>
}

/** The most pending refunds kept: past it `record` rejects (and the caller reports the refund loudly). */
export const MAX_PENDING_REFUNDS = 10_000
/** Key of the pending refunds in the store. */
export const REFUND_LEDGER_KEY = 'litho:refunds:pending'
const LOCK_KEY = 'litho:refunds:lock'
/** The lock expires on its own if its holder dies; work under it is two store calls. */
const LOCK_TTL_SECONDS = 15
/** Waits for the lock: 100 tries of 10–40 ms, about 2.5 s. */
const LOCK_TRIES = 100

/** The ledger key of a refund: its meter key and id. */
export const refundKey = (refund: Pick<PendingRefund, 'subject' | 'window' | 'id'>): string => `${refund.subject}|${refund.window}|${refund.id}`

/**
 * A {@link RefundLedger} in an auth state store (any backend: memory, fs, Redis).
 *
 * @example
 * const ledger = stateStoreRefundLedger(backends.authState)
 * await reconcileRefunds({ meter, refunds: { ledger } })
 */
export function stateStoreRefundLedger(store: AuthStateStore): RefundLedger {
  const locked = async <T>(work: (entries: Record<string, PendingRefund>) => Promise<{ entries?: Record<string, PendingRefund>; value: T }>): Promise<T> => {
    const token = randomUUID()
    let held = false
    for (let attempt = 0; attempt < LOCK_TRIES && !held; attempt++) {
      held = await store.add(LOCK_KEY, token, { ttlSeconds: LOCK_TTL_SECONDS })
      if (!held) await sleep(10 + Math.floor(Math.random() * 30))
    }
    if (!held) throw new LithoError('ERR_STORAGE', `the refund ledger stayed locked (${LOCK_KEY} in the ${store.name} store) for more than 2 s`)
    try {
      const stored = await store.get(REFUND_LEDGER_KEY)
      const entries = stored && typeof stored === 'object' && !Array.isArray(stored) ? { ...(stored as Record<string, PendingRefund>) } : {}
      const { entries: next, value } = await work(entries)
      if (next) {
        if (Object.keys(next).length === 0) await store.delete(REFUND_LEDGER_KEY)
        else await store.set(REFUND_LEDGER_KEY, next)
      }
      return value
    } finally {
      // Only our own lock: if it expired and another holder took it, theirs stays.
      if ((await store.get(LOCK_KEY).catch(() => null)) === token) await store.delete(LOCK_KEY).catch(() => false)
    }
  }

  return {
    record: (refund) =>
      locked(async (entries) => {
        const key = refundKey(refund)
        const known = entries[key]
        if (!known && Object.keys(entries).length >= MAX_PENDING_REFUNDS)
          throw new LithoError('ERR_STORAGE', `the refund ledger is full (${MAX_PENDING_REFUNDS} pending refunds): is the meter down?`)
        entries[key] = known ? { ...known, tries: known.tries + refund.tries, lastError: refund.lastError } : { ...refund }
        return { entries, value: undefined }
      }),
    list: async () => {
      const stored = await store.get(REFUND_LEDGER_KEY)
      if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return []
      return Object.values(stored as Record<string, PendingRefund>).sort((a, b) => (a.recordedAt < b.recordedAt ? -1 : a.recordedAt > b.recordedAt ? 1 : 0))
    },
    settle: (settled, retried = []) =>
      locked(async (entries) => {
        for (const key of settled) delete entries[key]
        for (const refund of retried) if (entries[refundKey(refund)]) entries[refundKey(refund)] = refund
        return { entries, value: undefined }
      }),
  }
}
