// `pnpm fuzz`: the fuzz suite at its full budget (docs/fuzzing.md). The same test files run a
// small seeded slice inside `pnpm test`; LITHO_FUZZ=full switches them to the full budget.
import { defineConfig } from 'vitest/config'
import { alias } from './vitest.shared.js'

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['packages/*/test/fuzz/**/*.test.ts', 'packages/*/test/fuzz-*.test.ts'],
    env: { LITHO_FUZZ: 'full' },
    // The budget, not a per-test clock, bounds a run; each case has its own limit.
    testTimeout: 0,
    reporters: ['verbose'],
  },
})
