import { defineProject } from 'vitest/config'
import { alias } from '../../vitest.shared.js'

export default defineProject({
  resolve: { alias },
  test: { name: 'auth-adapters', include: ['test/**/*.test.ts'] },
})
