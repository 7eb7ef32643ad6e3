import { defineConfig } from 'tsup'

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  // vite builds the app into dist/app first; keep it.
  clean: false,
  target: 'node20',
})
