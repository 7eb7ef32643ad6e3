import { defineProject } from 'vitest/config'
import { alias } from '../../vitest.shared.js'

export default defineProject({
  resolve: { alias },
  // One browser and one `litho serve` per file; files run one after another (2 cores).
  test: { name: 'console', include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000, fileParallelism: false },
})
