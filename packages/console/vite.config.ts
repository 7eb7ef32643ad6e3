import { defineConfig } from 'vite'

// No framework plugin: esbuild compiles the JSX for Preact directly.
export default defineConfig({
  root: 'app',
  base: './',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { outDir: '../dist/app', emptyOutDir: true, target: 'es2022', assetsDir: 'assets', reportCompressedSize: true, modulePreload: { polyfill: false } },
})
