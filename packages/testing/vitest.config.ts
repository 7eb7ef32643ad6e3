import { defineProject } from 'vitest/config'
import { alias } from '../../vitest.shared.js'

export default defineProject({
  resolve: { alias },
  test: { name: 'testing', include: ['test/**/*.test.ts'], testTimeout: 60_000 },
})
