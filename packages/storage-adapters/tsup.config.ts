import { defineConfig } from 'tsup'

export default defineConfig({
  // One entry per subpath export: importing one backend never loads another.
  entry: { 'file-store': 'src/file-store.ts', index: 'src/index.ts', memory: 'src/memory.ts', fs: 'src/fs.ts', redis: 'src/redis.ts', 'design-store': 'src/design-store.ts', 'account-store': 'src/account-store.ts', 'auth-state-store': 'src/auth-state-store.ts', 'job-store': 'src/job-store.ts', 'job-queue': 'src/job-queue.ts', 'retention-index': 'src/retention-index.ts', 'asset-store': 'src/asset-store.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
})
