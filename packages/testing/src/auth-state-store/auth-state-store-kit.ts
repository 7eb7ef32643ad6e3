/**
 * The context, helpers and types the auth state store cases share (the cases themselves are in
 * `./cases/`, one file per topic; `./auth-state-store-cases.ts` lists them in order).
 *
 * @module auth-state-store/auth-state-store-kit
 */
import type { AuthStateCapabilities, AuthStateStore } from '@litho/core/contracts'
import { expect } from 'vitest'
import { createRunPrefix } from '../_suite.js'
/** What a case gets: the suite's store, the factory, and keys unique to this run. */
export interface AuthStateStoreCaseContext {
  /** The store created for the suite (disposed after the last case). */
  store: AuthStateStore
  /** Creates another store over the same storage; the case disposes it. */
  create: () => Promise<AuthStateStore>
  /** A key unique to this run and `label`: `<run prefix>:<label>`. */
  key: (label: string) => string
}

/** One case of the suite. */
export interface AuthStateStoreCase {
  /** Stable title, `auth state store › <behaviour>`; also the name to skip it by. */
  title: string
  /** The capability the case tests; it is skipped when the store does not declare it. */
  needs?: keyof AuthStateCapabilities
  run: (context: AuthStateStoreCaseContext) => Promise<void>
}

/** Builds the per-run helpers of {@link AuthStateStoreCaseContext}. */
export function createAuthStateStoreCaseContext(
  store: AuthStateStore,
  create: () => AuthStateStore | Promise<AuthStateStore>,
  prefix = createRunPrefix(),
): AuthStateStoreCaseContext {
  return { store, create: async () => create(), key: (label) => `${prefix}:${label}` }
}

/** How many racers the concurrency cases start. */
export const RACERS = 50
/** The TTL the expiry cases use, and how long they wait for it: the port allows expiry to be a second late. */
export const TTL = { ttlSeconds: 1 }
export const EXPIRY_WAIT_MS = 3_000

/** JSON values of every kind the port stores, each with a label. */
export const VALUES: ReadonlyArray<[label: string, value: unknown]> = [
  ['an object', { clientId: 'c1', scopes: ['read', 'write'], nested: { count: 2, ok: true, none: null } }],
  ['an array', [1, 'two', { three: 3 }, [4], null, false]],
  ['a string', 'rt_4fT9wQm2L'],
  ['an empty string', ''],
  ['a string with quotes, escapes and non-ASCII', 'é "quoted" \\ \n\t 𝄞 {}'],
  ['zero', 0],
  ['a negative fraction', -12.5],
  ['the largest safe integer', Number.MAX_SAFE_INTEGER],
  ['true', true],
  ['false', false],
  ['an empty object', {}],
  ['an empty array', []],
]

/** Every case, in the order they run. */


// --- internal helpers ---

/** The racer marker in a value written by a concurrency case, or a description of what it is. */
export function markerOf(value: unknown): string {
  if (typeof value === 'object' && value !== null && typeof (value as { marker?: unknown }).marker === 'string') return (value as { marker: string }).marker
  return `unexpected ${JSON.stringify(value)}`
}

/**
 * What N concurrent swaps on one key must leave: the swaps happened in SOME order, so exactly one
 * saw `before`, every other saw the marker of another racer (never its own), no value was seen
 * twice, and the key now holds the one marker nobody saw (the last swap's).
 */
export function expectOneChain(results: unknown[], before: { marker: string } | null, final: unknown): void {
  const sawBefore = results.filter((result) => (before === null ? result === null : markerOf(result) === before.marker)).length
  expect(sawBefore, `${sawBefore} of ${results.length} swaps saw the value before them (expected exactly 1)`).toBe(1)
  const seen = new Map<string, number>()
  for (const [index, result] of results.entries()) {
    if (before === null ? result === null : markerOf(result) === before.marker) continue
    const marker = markerOf(result)
    expect(marker, `swap ${index} returned ${marker}, expected another racer's marker`).toMatch(/^racer-\d+$/)
    expect(marker, `swap ${index} returned its own value`).not.toBe(`racer-${index}`)
    seen.set(marker, (seen.get(marker) ?? 0) + 1)
  }
  const twice = [...seen].filter(([, count]) => count > 1).map(([marker]) => marker)
  expect(twice, `values returned by more than one swap: ${twice.join(', ')}`).toEqual([])
  const unseen = results.map((_, index) => `racer-${index}`).filter((marker) => !seen.has(marker))
  expect(unseen, 'exactly one racer value is not returned by any swap: the last one').toHaveLength(1)
  expect(markerOf(final), 'the key holds the last swap’s value').toBe(unseen[0])
}

/** What N concurrent adds on one absent key must leave: one true, and the key holds its value. */
export function expectOneAdd(results: boolean[], final: unknown): void {
  const winners = results.flatMap((added, index) => (added ? [index] : []))
  expect(winners.length, `${winners.length} of ${results.length} concurrent adds returned true (expected exactly 1)`).toBe(1)
  expect(markerOf(final), 'the key holds the value of the add that returned true').toBe(`racer-${winners[0]}`)
}
