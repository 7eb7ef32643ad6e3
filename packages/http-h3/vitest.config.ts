import { defineProject } from 'vitest/config'
import { alias } from '../../vitest.shared.js'

export default defineProject({
  resolve: { alias },
  test: { name: 'http-h3', include: ['test/**/*.test.ts'], testTimeout: 60_000 },
})
