// Child process for anchor-layers.test.ts: rasterises the SVG given on stdin with resvg, the
// way render does, so that a native abort (a resvg panic) kills this child, not vitest.
import { Resvg } from '@resvg/resvg-js'
import { anchorLayers } from '../../src/render/anchor-layers.js'

const chunks: Buffer[] = []
for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
const svg = anchorLayers(Buffer.concat(chunks).toString('utf8'))
const rendered = new Resvg(svg, { font: { loadSystemFonts: false }, fitTo: { mode: 'original' } }).render()
process.stdout.write(JSON.stringify({ width: rendered.width, height: rendered.height, png: rendered.asPng().length }))
