import { defineConfig } from 'tsup'

export default defineConfig({
  entry: { 'file-store': 'src/file-store/index.ts', index: 'src/index.ts', meter: 'src/meter/index.ts', 'design-store': 'src/design-store/index.ts', 'account-store': 'src/account-store/index.ts', 'auth-state-store': 'src/auth-state-store/index.ts', 'job-queue': 'src/job-queue/index.ts', 'retention-index': 'src/retention-index/index.ts', 'asset-store': 'src/asset-store/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
})
