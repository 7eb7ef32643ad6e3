// Child process for anchor-layers.test.ts: rasterises the SVG given on stdin with resvg, so
// that a native abort (a resvg panic) kills this child, not vitest. `raw` anchors every layer
// and renders with resvg directly; `rasterize` goes through render's own encoder, which
// decides itself whether the SVG needs anchors.
import { Resvg } from '@resvg/resvg-js'
import sharp from 'sharp'
import { anchorLayers } from '../../src/render/anchor-layers.js'
import { rasterize } from '../../src/render/encode.js'

const chunks: Buffer[] = []
for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
const svg = Buffer.concat(chunks).toString('utf8')
if (process.argv[2] === 'rasterize') {
  const png = await rasterize(svg, 'png', 80)
  const { width, height } = await sharp(png).metadata()
  process.stdout.write(JSON.stringify({ width, height, png: png.length }))
} else {
  const rendered = new Resvg(anchorLayers(svg), { font: { loadSystemFonts: false }, fitTo: { mode: 'original' } }).render()
  process.stdout.write(JSON.stringify({ width: rendered.width, height: rendered.height, png: rendered.asPng().length }))
}
