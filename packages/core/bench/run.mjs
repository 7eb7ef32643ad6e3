// `pnpm bench`: render times of the reference set on a warm worker, pool throughput,
// memory over 300 renders, and, when Debian's chromium is installed, the same card drawn
// by headless Chromium (the browser-based approach most hosted products use).
//
// Runs against the built packages (dist/), exactly what users get. Options:
//   --quick        fewer samples (for a smoke run)
//   --only=NAMES   sections, comma-separated: latency, throughput, memory, chromium, takumi
//   --design=NAME  latency of one design: card1080, preview1200, poster2160, worst4096
// LITHO_LAYER_CACHE=0 runs the pools without the static-layer cache (layerCacheBytes: 0), for
// before/after figures on one machine (docs/performance.md).
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { createRenderPool } from '../dist/index.js'
import { referenceDesigns, syntheticPhotoDataUri } from '../../testing/dist/index.js'
import { calibrate } from './calibrate.mjs'
import { takumiSection, takumiTargets } from './takumi-section.mjs'

const args = new Set(process.argv.slice(2))
const quick = args.has('--quick')
const only = [...args].find((a) => a.startsWith('--only='))?.slice(7)
const want = (section) => !only || only.split(',').includes(section)
const onlyDesign = [...args].find((a) => a.startsWith('--design='))?.slice(9)
const FORMATS = ['png', 'jpeg', 'webp', 'pdf']
const designs = await referenceDesigns()
const results = {}
const poolOptions = process.env.LITHO_LAYER_CACHE === '0' ? { layerCacheBytes: 0 } : {}

const median = (xs) => quantile(xs, 0.5)
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]
}
const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1)).padStart(7)

// Calibration (calibrate.mjs): lets figures from different runs be compared.
results.calibration = await calibrate()


// Every render gets a new title, as a render service sees (and as the Chromium page does
// below), so nothing that depends on the text can be reused from the previous render.
let serial = 0
const withTitle = (options) => (process.env.BENCH_FIXED ? options : { ...options, overrides: { 'title.text': `A fresh headline for render number ${serial++}, wrapped and clamped` } })

async function timeRenders(pool, design, options, n) {
  const times = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    await pool.render(design, withTitle(options))
    times.push(performance.now() - t)
  }
  return times
}

// 1. Latency: one render at a time on one warm worker.
if (want('latency')) {
  const pool = createRenderPool({ ...poolOptions, threads: 1 })
  await pool.ready()
  const sets = [
    ['card1080', '1080x1080 social card', quick ? 8 : 30],
    ['preview1200', '1200x630 link preview', quick ? 8 : 30],
    ['poster2160', '2160x2160 poster', quick ? 3 : 10],
    ['worst4096', '4096x4096 worst case', quick ? 2 : 5],
  ]
  console.log('\nOne render at a time on a warm worker (ms)\n')
  console.log('design                   format   median      p95   size')
  for (const [name, label, n] of sets) {
    if (onlyDesign && name !== onlyDesign) continue
    for (const format of FORMATS) {
      const options = { format, quality: 80 }
      await timeRenders(pool, designs[name], options, 2) // warm this design and format
      const times = await timeRenders(pool, designs[name], options, n)
      const size = (await pool.render(designs[name], options)).bytes.length
      results[`${name}.${format}`] = { median: median(times), p95: quantile(times, 0.95), bytes: size }
      console.log(`${label.padEnd(24)} ${format.padEnd(6)} ${fmt(median(times))}  ${fmt(quantile(times, 0.95))}   ${(size / 1024).toFixed(0)} KB`)
    }
  }
  await pool.close()
}

// 2. Throughput: the pool at full concurrency, 1 worker against all workers.
if (want('throughput')) {
  const cores = availableParallelism()
  console.log(`\nThroughput, 1080x1080 card, pool at full concurrency (${cores} cores)\n`)
  console.log('format   workers   renders/s   CPU')
  for (const format of ['png', 'jpeg']) {
    const rates = []
    for (const threads of [1, cores]) {
      const pool = createRenderPool({ ...poolOptions, threads })
      await pool.ready()
      const n = quick ? 20 : 120
      // Full concurrency: twice as many clients as workers, each sending its next render
      // when the last one returns (a bounded queue, as a server in front of the pool has).
      const clients = threads * 2
      const run = async (count) => {
        let next = 0
        await Promise.all(Array.from({ length: clients }, async () => {
          while (next++ < count) await pool.render(designs.card1080, withTitle({ format }))
        }))
      }
      await run(clients)
      const t = performance.now()
      const cpu = process.cpuUsage()
      await run(n)
      const wall = (performance.now() - t) / 1000
      const used = process.cpuUsage(cpu)
      const rate = n / wall
      rates.push(rate)
      // Cores busy on average: above 1 with one worker means work outside its thread (GC
      // helpers, libuv, the kernel) that a second worker competes with.
      const cores = (used.user + used.system) / 1e6 / wall
      console.log(`${format.padEnd(8)} ${String(threads).padStart(7)}   ${rate.toFixed(1).padStart(9)}   ${cores.toFixed(2)} cores busy`)
      await pool.close()
    }
    results[`throughput.${format}`] = { one: rates[0], all: rates[1], speedup: rates[1] / rates[0] }
    console.log(`${format.padEnd(8)} speed-up ${(rates[1] / rates[0]).toFixed(2)}x`)
  }
}

// 3. Memory: 300 renders in a row; peak RSS of the whole process (workers included).
// Measured in a fresh process: earlier sections (4096x4096 renders, other pools) leave
// freed memory that the allocator has not returned, which would count against it.
if (want('memory')) {
  if (only === 'memory') {
    const pool = createRenderPool(poolOptions)
    await pool.ready()
    let peak = process.memoryUsage().rss
    const n = quick ? 60 : 300
    for (let i = 0; i < n; i++) {
      await pool.render(designs.card1080, withTitle({ format: FORMATS[i % FORMATS.length] }))
      peak = Math.max(peak, process.memoryUsage().rss)
    }
    await pool.close()
    results.memory = { renders: n, peakRssMb: peak / 2 ** 20 }
    console.log(`\nMemory: ${n} renders in a row (all formats), peak RSS ${(peak / 2 ** 20).toFixed(0)} MB`)
  } else {
    const { execFileSync } = await import('node:child_process')
    const out = execFileSync(process.execPath, [new URL(import.meta.url).pathname, '--only=memory', ...(quick ? ['--quick'] : [])], { encoding: 'utf8', env: { ...process.env, BENCH_JSON: '1' } })
    const json = JSON.parse(out.trim().split('\n').pop())
    results.memory = json.memory
    console.log(`\nMemory: ${json.memory.renders} renders in a row (all formats) in a fresh process, peak RSS ${json.memory.peakRssMb.toFixed(0)} MB`)
  }
}

// 4. Headless Chromium drawing the same card (one warm page, DOM swapped per render).
if (want('chromium')) {
  const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!existsSync(chromiumPath)) {
    console.log(`\nChromium: not installed at ${chromiumPath} (apt-get install -y chromium); comparison skipped`)
  } else {
    const { chromium } = await import('playwright-core')
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    })
    const page = await browser.newPage({ viewport: { width: 1080, height: 1080 } })
    await page.setContent(await cardHtml())
    await page.evaluate(() => document.fonts.ready)
    const cdp = await page.context().newCDPSession(page)
    const shoot = {
      png: () => page.screenshot({ type: 'png' }),
      jpeg: () => page.screenshot({ type: 'jpeg', quality: 80 }),
      webp: () => cdp.send('Page.captureScreenshot', { format: 'webp', quality: 80 }),
      pdf: () => page.pdf({ width: '1080px', height: '1080px', printBackground: true, pageRanges: '1' }),
    }
    console.log('\nHeadless Chromium, same 1080x1080 card, one warm page (ms)\n')
    console.log('format    chromium    litho   chromium/litho')
    let i = 0
    for (const format of FORMATS) {
      const times = []
      for (let k = 0; k < (quick ? 6 : 20) + 2; k++) {
        const t = performance.now()
        await page.evaluate((n) => (document.getElementById('title').textContent = `Twelve words about a product launch that everyone has been waiting for all year ${n}`), i++)
        await shoot[format]()
        if (k >= 2) times.push(performance.now() - t)
      }
      const ours = results[`card1080.${format}`]?.median
      results[`chromium.${format}`] = { median: median(times), ratio: ours ? median(times) / ours : undefined }
      console.log(`${format.padEnd(8)} ${fmt(median(times))}  ${ours ? fmt(ours) : '      –'}   ${ours ? `${(median(times) / ours).toFixed(2)}x` : '(run latency too)'}`)
    }
    await browser.close()
  }
}

// 5. Takumi (@takumi-rs/core, a devDependency of the workspace root) on the same card: skipped,
// with a line saying so, where it cannot load.
if (want('takumi')) await takumiSection({ designs, quick, results })

// The targets of the first release (docs/benchmarks.md), on a 2-core machine.
const targets = [
  ['1080 card PNG median ≤ 75 ms', results['card1080.png']?.median, (v) => v <= 75, (v) => `${v.toFixed(1)} ms`],
  ['1080 card JPEG median ≤ 60 ms', results['card1080.jpeg']?.median, (v) => v <= 60, (v) => `${v.toFixed(1)} ms`],
  ['1080 card WebP median ≤ 90 ms', results['card1080.webp']?.median, (v) => v <= 90, (v) => `${v.toFixed(1)} ms`],
  ['1080 card PDF median ≤ 90 ms', results['card1080.pdf']?.median, (v) => v <= 90, (v) => `${v.toFixed(1)} ms`],
  ['4096 JPEG median < 1300 ms', results['worst4096.jpeg']?.median, (v) => v < 1300, (v) => `${v.toFixed(0)} ms`],
  ['2 workers ≥ 1.6x one (PNG)', results['throughput.png']?.speedup, (v) => v >= 1.6, (v) => `${v.toFixed(2)}x`],
  ['2 workers ≥ 1.6x one (JPEG)', results['throughput.jpeg']?.speedup, (v) => v >= 1.6, (v) => `${v.toFixed(2)}x`],
  ['300 renders < 600 MB RSS', results.memory?.peakRssMb, (v) => v < 600, (v) => `${v.toFixed(0)} MB`],
  // Issue 14: faster than a warm Chromium page on every format (chromium time / ours).
  ['JPEG ≥ 2x faster than Chromium', results['chromium.jpeg']?.ratio, (v) => v >= 2, (v) => `${v.toFixed(2)}x`],
  ['WebP ≥ 2x faster than Chromium', results['chromium.webp']?.ratio, (v) => v >= 2, (v) => `${v.toFixed(2)}x`],
  ['PNG ≥ 4x faster than Chromium', results['chromium.png']?.ratio, (v) => v >= 4, (v) => `${v.toFixed(2)}x`],
  ['PDF ≥ 3x faster than Chromium', results['chromium.pdf']?.ratio, (v) => v >= 3, (v) => `${v.toFixed(2)}x`],
].filter(([, value]) => value !== undefined)
// The issue "Pass Takumi": faster than Takumi on every raster format, light to import and start.
targets.push(...takumiTargets(results))
if (targets.length > 0) {
  console.log('\nTargets\n')
  for (const [label, value, ok, show] of targets) console.log(`${ok(value) ? 'MET   ' : 'MISSED'}  ${label.padEnd(36)} ${show(value)}`)
}

if (process.env.BENCH_JSON) console.log(JSON.stringify(results))

async function cardHtml() {
  const require = createRequire(import.meta.url)
  const font = (w) => readFileSync(require.resolve(`@fontsource/inter/files/inter-latin-${w}-normal.woff2`)).toString('base64')
  const QRCode = (await import('qrcode')).default
  const qr = await QRCode.toString('https://example.com/launch?utm_source=card', { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })
  const photo = await syntheticPhotoDataUri()
  return `<!doctype html><html><head><style>
@font-face { font-family: Inter; font-weight: 400; src: url(data:font/woff2;base64,${font(400)}) format('woff2'); }
@font-face { font-family: Inter; font-weight: 700; src: url(data:font/woff2;base64,${font(700)}) format('woff2'); }
html, body { margin: 0; }
#c { position: relative; width: 1080px; height: 1080px; background: linear-gradient(135deg, #0f172a, #1e3a8a); font-family: Inter; overflow: hidden; }
#c > * { position: absolute; box-sizing: border-box; }
#photo { left: 0; top: 0; width: 1080px; height: 600px; object-fit: cover; border-radius: 40px; }
#title { left: 60px; top: 640px; width: 960px; height: 160px; font-size: 64px; font-weight: 700; line-height: 76px; color: #fff; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
#sub { left: 60px; top: 820px; width: 760px; height: 80px; font-size: 32px; line-height: 1.25; color: #cbd5e1; }
#badge { left: 60px; top: 940px; width: 220px; height: 64px; border-radius: 32px; background: #facc15; color: #0f172a; font-size: 30px; font-weight: 700; display: flex; align-items: center; justify-content: center; }
#qr { left: 850px; top: 850px; width: 170px; height: 170px; }
#qr svg { width: 170px; height: 170px; }
</style></head><body><div id="c">
<img id="photo" src="${photo}">
<div id="title">Twelve words about a product launch that everyone has been waiting for all year</div>
<div id="sub">Available today in every store, with free shipping on all orders over fifty dollars.</div>
<div id="badge">NEW</div>
<div id="qr">${qr}</div>
</div></body></html>`
}
