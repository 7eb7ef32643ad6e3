/**
 * The render stack: the pipeline with satori, resvg, sharp, pdfkit, qrcode and bwip-js behind
 * it. Nothing that `import '@litho/core'` loads imports this module statically: the renderer
 * loads it on its first render (see {@link loadRenderStack}), so a process that only validates,
 * signs or serves stored files starts without the native image stack.
 *
 * @module render/stack
 */
export { renderDocument, renderResolved } from './render-document.js'
export { warmUp } from './warm-up.js'
