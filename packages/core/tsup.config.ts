import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    // Types only: adapters import the ports from here without loading the renderer.
    contracts: 'src/contracts/index.ts',
    // The error class alone: what adapters import at runtime, without the renderer.
    errors: 'src/errors.ts',
    // The pure pieces of signed URLs (canonicalPath, the UrlSigner types) and signRenderUrl, without zod: the file stores, browsers.
    signing: 'src/signing.ts',
    // The worker is its own file: piscina loads it by URL in each thread.
    'render-worker': 'src/render/worker.ts',
  },
  format: ['esm'],
  // zod goes into the bundle, tree-shaken: from node_modules it is ~95 modules (every locale
  // among them), which made half of `import '@litho/core'` (docs/performance.md, "Cold start").
  // It stays a dependency for the types. zod 4 keeps its registry and config on globalThis and
  // checks instanceof by trait, so schemas made here mix with an app's own zod.
  noExternal: ['zod'],
  dts: { entry: { index: 'src/index.ts', contracts: 'src/contracts/index.ts', errors: 'src/errors.ts', signing: 'src/signing.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
})
