// One cold start, in this (fresh) process: import the engine, then render the card once to
// JPEG. Prints { importMs, firstRenderMs, totalMs, bytes } as JSON. argv[3] is the assets file of
// takumi-section.mjs ({ design, photo, qr, fonts }, all files made by the parent), so that
// building the card (its photo is made with sharp) loads nothing here. Engines: `litho`
// (render()), `litho-ready` (createRenderer(), ready(), then the first render: readyMs apart),
// `litho-pool` (a 2-thread pool, until the first render is back), `takumi`
// (takumi.mjs, one Renderer).
//   node cold-start.mjs <engine> <assets.json>
import { readFileSync } from 'node:fs'

const [engine, file] = process.argv.slice(2)
const assets = JSON.parse(readFileSync(file, 'utf8'))
const design = JSON.parse(readFileSync(assets.design, 'utf8'))
const started = performance.now()
let importMs
let bytes
let readyMs
if (engine === 'litho' || engine === 'litho-pool' || engine === 'litho-ready') {
  const core = await import('../dist/index.js')
  importMs = performance.now() - started
  const options = { format: 'jpeg', quality: 80, overrides: { 'title.text': 'A cold start headline' } }
  if (engine === 'litho') bytes = (await core.render(design, options)).bytes
  else if (engine === 'litho-ready') {
    // What an application that warms its renderer at start-up sees: ready() apart, then the
    // first render (timed from here, so firstRenderMs excludes ready()).
    const renderer = core.createRenderer()
    await renderer.ready()
    readyMs = performance.now() - started - importMs
    bytes = (await renderer.render(design, options)).bytes
  }
  else {
    const pool = core.createRenderPool({ threads: 2 })
    bytes = (await pool.render(design, options)).bytes
    await pool.close()
  }
} else if (engine === 'takumi') {
  const { loadTakumi } = await import('./takumi.mjs')
  const takumi = await loadTakumi(assets)
  importMs = performance.now() - started
  bytes = await takumi.render('A cold start headline', 'jpeg')
} else throw new Error(`unknown engine ${engine}`)
const totalMs = performance.now() - started
process.stdout.write(JSON.stringify({ importMs, ...(readyMs === undefined ? {} : { readyMs }), firstRenderMs: totalMs - importMs - (readyMs ?? 0), totalMs, bytes: bytes.length }))
