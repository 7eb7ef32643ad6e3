// How much fuzzing to do. `pnpm test` runs a small slice with a fixed seed (the same cases on
// every run, fast); `pnpm fuzz` (vitest.fuzz.config.ts sets LITHO_FUZZ=full) runs the full
// budget with a fresh seed, printed so that any run can be replayed (docs/fuzzing.md).
import type { Parameters } from 'fast-check'

/** True under `pnpm fuzz`. */
export const FULL = process.env.LITHO_FUZZ === 'full'

/** The fixed seed of the slice in `pnpm test`. */
const TEST_SEED = 20261123

function envInt(name: string): number | undefined {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return undefined
  const value = Number(raw)
  if (!Number.isSafeInteger(value)) throw new TypeError(`Expected ${name} to be an integer but received ${JSON.stringify(raw)}`)
  return value
}

/** The seed of this run: FUZZ_SEED, else fixed in `pnpm test`, else random (and printed). */
export const SEED = envInt('FUZZ_SEED') ?? (FULL ? Math.floor(Math.random() * 2 ** 31) : TEST_SEED)

/**
 * fast-check parameters for a property: `slice` cases in `pnpm test`, `full` under `pnpm fuzz`
 * (FUZZ_RUNS overrides `full` for the pure stages, FUZZ_SAMPLE for the render and HTTP ones).
 */
export function budget(kind: 'pure' | 'sample', slice: number, full: number): Parameters<unknown> & { numRuns: number } {
  const runs = FULL ? (envInt(kind === 'pure' ? 'FUZZ_RUNS' : 'FUZZ_SAMPLE') ?? full) : slice
  return { numRuns: runs, seed: SEED }
}

/** Prints one line per property under `pnpm fuzz` (quiet in `pnpm test`). */
export function report(name: string, runs: number, startedAt: number, counts: Record<string, number> = {}): void {
  if (!FULL) return
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1)
  const detail = Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')
  console.log(`fuzz ${name}: ${runs} cases in ${seconds} s (seed ${SEED}, replay with FUZZ_SEED=${SEED})${detail ? `; ${detail}` : ''}`)
}
