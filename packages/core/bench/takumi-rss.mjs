// RSS after N renders of the reference card (JPEG, PNG and WebP in turn, a fresh title each), in
// this fresh process. Engines: `litho` (one createRenderer), `litho-pool` (a 2-thread pool; its
// threads count in the process RSS), `takumi` (one Renderer). Prints { renders, rssMb } as JSON.
//   node takumi-rss.mjs <engine> <assets.json> <renders>
import { readFileSync } from 'node:fs'

const [engine, assetsFile, count] = process.argv.slice(2)
const assets = JSON.parse(readFileSync(assetsFile, 'utf8'))
const n = Number(count)
const formats = ['jpeg', 'png', 'webp']
const title = (i) => `A fresh headline for render number ${i}, wrapped and clamped`
let renderOne
let close = async () => {}
if (engine === 'takumi') {
  const { loadTakumi } = await import('./takumi.mjs')
  const takumi = await loadTakumi(assets)
  renderOne = (i) => takumi.render(title(i), formats[i % 3])
} else {
  const core = await import('../dist/index.js')
  const design = JSON.parse(readFileSync(assets.design, 'utf8'))
  const renderer = engine === 'litho-pool' ? core.createRenderPool({ threads: 2 }) : core.createRenderer()
  renderOne = (i) => renderer.render(design, { format: formats[i % 3], quality: 80, overrides: { 'title.text': title(i) } })
  close = () => renderer.close()
}
for (let i = 0; i < n; i++) await renderOne(i)
const rssMb = process.memoryUsage().rss / 2 ** 20
await close()
process.stdout.write(JSON.stringify({ renders: n, rssMb }))
