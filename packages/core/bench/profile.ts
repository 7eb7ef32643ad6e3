// `npx tsx packages/core/bench/profile.ts [--design=card1080] [--n=25]`: where the time of one
// render goes, stage by stage (prepare, layout, rasterize, composite, encode), on the whole
// path and on the static-layer path, for PNG, JPEG and WebP, then PDF (prepare, layout, and
// svgToPdf in the encode column), each render with a fresh title (docs/performance.md, "Where
// the time goes"); *validate* is resolveDocument (schema, overrides, variation) of the raw
// design. Runs from source on the calling thread.
import { Resvg } from '@resvg/resvg-js'
import sharp from 'sharp'
import { referenceDesigns } from '../../testing/src/index.js'
import { encodePixels } from '../src/render/encode.js'
import { opaquePngFast } from '../src/render/fast-png.js'
import { createLayerCache } from '../src/render/layers/layer-cache.js'
import { renderLayered, type StageTimes } from '../src/render/layers/render-layered.js'
import { isOpaquePaint, layoutPass, prepareDocument } from '../src/render/layout-pass.js'
import { svgToPdf } from '../src/render/pdf.js'
import { createRenderContext } from '../src/render/renderer.js'
import { resolveDocument } from '../src/render/resolve-document.js'

sharp.cache(false)
const arg = (name: string, fallback: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback
const designs = await referenceDesigns()
const design = designs[arg('design', 'card1080') as keyof typeof designs]
const n = Number(arg('n', '25'))
const context = createRenderContext({ layerCacheBytes: 0 })
const cache = createLayerCache()!
const RESVG = { font: { loadSystemFonts: false }, fitTo: { mode: 'original' as const } }
let serial = 0
let validated = 0
const fresh = () => {
  const started = performance.now()
  const resolved = resolveDocument(design, { overrides: { 'title.text': `A fresh headline for render number ${serial++}, wrapped and clamped` } })
  validated = performance.now() - started
  return resolved
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

type Stages = { validate: number; prepare: number; layout: number; rasterize: number; composite: number; encode: number; total: number }
// Resolve, prepare and lay out the whole document (the whole path and PDF share these stages).
async function wholeLayout(): Promise<{ resolved: ReturnType<typeof fresh>; svg: string; t0: number; stages: Pick<Stages, 'validate' | 'prepare' | 'layout'> }> {
  const resolved = fresh()
  const t0 = performance.now()
  const prepared = await prepareDocument(resolved, context)
  const t1 = performance.now()
  const { svg } = await layoutPass(resolved, resolved.document.components, resolved.document.background, prepared)
  return { resolved, svg, t0, stages: { validate: validated, prepare: t1 - t0, layout: performance.now() - t1 } }
}

async function whole(format: 'png' | 'jpeg' | 'webp'): Promise<Stages> {
  const { resolved, svg, t0, stages } = await wholeLayout()
  const t2 = performance.now()
  const rendered = new Resvg(svg, RESVG).render()
  const t3 = performance.now()
  const opaque = isOpaquePaint(resolved.document.background)
  // As render/encode.ts does: an opaque PNG through the fast encoder, else resvg's own.
  if (format === 'png') (opaque ? await opaquePngFast(rendered.pixels, rendered.width, rendered.height) : undefined) ?? rendered.asPng()
  else await encodePixels(sharp(rendered.pixels, { raw: { width: rendered.width, height: rendered.height, channels: 4 } }), format, 80, opaque)
  const t4 = performance.now()
  return { ...stages, rasterize: t3 - t2, composite: 0, encode: t4 - t3, total: validated + t4 - t0 }
}

async function pdf(): Promise<Stages> {
  const { resolved, svg, t0, stages } = await wholeLayout()
  const t2 = performance.now()
  await svgToPdf(svg, resolved.width, resolved.height)
  const t3 = performance.now()
  return { ...stages, rasterize: 0, composite: 0, encode: t3 - t2, total: validated + t3 - t0 }
}

async function layered(format: 'png' | 'jpeg' | 'webp', cold = false): Promise<Stages> {
  if (cold) cache.clear()
  const resolved = fresh()
  const t0 = performance.now()
  const prepared = await prepareDocument(resolved, context)
  const t1 = performance.now()
  const times: StageTimes = { layout: 0, rasterize: 0, composite: 0, encode: 0 }
  const out = await renderLayered(resolved, { format, quality: 80 }, prepared, cache, times)
  if (!out) throw new Error('the layered path fell back')
  return { validate: validated, prepare: t1 - t0, ...times, total: validated + performance.now() - t0 }
}

console.log(`${arg('design', 'card1080')}, median of ${n} renders per row, ms (fresh title each; layered: warm cache; cold: the cache emptied before each render, so it builds the layers)\n`)
console.log('path      format validate  prepare   layout  rasterize  composite  encode   total')
for (const format of ['png', 'jpeg', 'webp'] as const) {
  for (const [name, run] of [['whole', whole], ['layered', layered], ['cold', (f: typeof format) => layered(f, true)]] as const) {
    for (let i = 0; i < 3; i++) await run(format)
    const rows: Stages[] = []
    for (let i = 0; i < n; i++) {
      rows.push(await run(format))
      await new Promise((resolve) => setImmediate(resolve))
    }
    const m = (k: keyof Stages): string => median(rows.map((r) => r[k])).toFixed(1).padStart(7)
    console.log(`${name.padEnd(9)} ${format.padEnd(6)} ${m('validate')}  ${m('prepare')}  ${m('layout')}    ${m('rasterize')}    ${m('composite')}  ${m('encode')}  ${m('total')}`)
  }
}
for (let i = 0; i < 3; i++) await pdf()
const pdfRows: Stages[] = []
for (let i = 0; i < n; i++) {
  pdfRows.push(await pdf())
  await new Promise((resolve) => setImmediate(resolve))
}
const p = (k: keyof Stages): string => median(pdfRows.map((r) => r[k])).toFixed(1).padStart(7)
console.log(`whole     pdf    ${p('validate')}  ${p('prepare')}  ${p('layout')}          –          –  ${p('encode')}  ${p('total')}`)
