import { defineProject } from 'vitest/config'
import { alias } from '../../vitest.shared.js'

export default defineProject({
  resolve: { alias },
  test: {
    name: 'core',
    include: ['test/**/*.test.ts'],
    // Renders are CPU-bound; golden tests on 2 cores need room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
