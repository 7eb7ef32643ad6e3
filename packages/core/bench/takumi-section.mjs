// `pnpm bench --only=takumi`: Litho against Takumi (@takumi-rs/core, a Rust renderer with Node
// bindings) on the reference card: interleaved render by render, cold start, memory, throughput,
// and the targets of the issue "Pass Takumi" (docs/performance.md, "Against Takumi").
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRenderPool, createRenderer, render } from '../dist/index.js'

const here = (file) => new URL(file, import.meta.url).pathname
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil(q * xs.length) - 1))]
const ms = (v) => (v >= 100 ? v.toFixed(0) : v.toFixed(1)).padStart(7)
const load = () => loadavg().map((v) => v.toFixed(1)).join(' ')
const child = (script, args) => JSON.parse(execFileSync(process.execPath, [here(script), ...args], { encoding: 'utf8', maxBuffer: 1 << 24 }))

/** The card's inputs as files, for Takumi and the child processes: design JSON, photo bytes, Litho's QR as PNG, Inter. */
async function writeAssets(design, dir) {
  mkdirSync(dir, { recursive: true })
  const file = (name, bytes) => (writeFileSync(join(dir, name), bytes), join(dir, name))
  const photo = design.components.find((c) => c.key === 'photo')
  const qr = design.components.find((c) => c.type === 'qrcode')
  // Takumi draws no QR: Litho's own, rendered once at its box size, goes in as an image.
  const qrPng = (await render({ version: 2, width: qr.width, height: qr.height, components: [{ ...qr, x: 0, y: 0 }] }, { format: 'png' })).bytes
  // The files Litho's built-in Inter reads (src/render/fonts/builtin-fonts.ts): the latin subset.
  const require = createRequire(import.meta.url)
  const font = (weight) => ({ file: require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff2`), weight })
  return {
    design: file('card.json', JSON.stringify(design)),
    photo: file('photo', Buffer.from(photo.src.slice(photo.src.indexOf(',') + 1), 'base64')),
    qr: file('qr.png', qrPng),
    fonts: [font(400), font(700)],
  }
}

/** Runs the section; returns false (after saying why) when @takumi-rs/core cannot load. */
export async function takumiSection({ designs, quick, results }) {
  let loadTakumi
  try {
    await import('@takumi-rs/core')
    ;({ loadTakumi } = await import('./takumi.mjs'))
  } catch (error) {
    console.log(`\nTakumi: skipped, @takumi-rs/core could not load (${String(error.message).split('\n')[0]}); install the workspace's devDependencies to compare`)
    return false
  }
  const dir = join(tmpdir(), 'litho-bench-takumi')
  const assets = await writeAssets(designs.card1080, dir)
  const assetsFile = join(dir, 'assets.json')
  writeFileSync(assetsFile, JSON.stringify(assets))
  const takumi = await loadTakumi(assets)
  const renderer = createRenderer()
  const pool = createRenderPool({ threads: 2 })
  await pool.ready()
  let serial = 0
  const title = () => `A fresh headline for render number ${serial++}, wrapped and clamped`
  const engines = {
    'litho render()': (format) => renderer.render(designs.card1080, { format, quality: 80, overrides: { 'title.text': title() } }).then((r) => r.bytes),
    'litho pool': (format) => pool.render(designs.card1080, { format, quality: 80, overrides: { 'title.text': title() } }).then((r) => r.bytes),
    takumi: (format) => takumi.render(title(), format),
  }

  // 1. Latency, interleaved render by render: one of each engine per round, each with a new title.
  const rounds = quick ? 10 : 40
  console.log(`\nAgainst Takumi: the 1080x1080 card, interleaved, ${rounds} renders each after 5 warm-ups (ms; load ${load()})\n`)
  console.log('format  engine           median      p90     size   ours÷takumi')
  for (const format of ['jpeg', 'png', 'webp']) {
    const times = Object.fromEntries(Object.keys(engines).map((name) => [name, []]))
    const bytes = {}
    for (let round = 0; round < rounds + 5; round++) {
      for (const [name, run] of Object.entries(engines)) {
        const started = performance.now()
        const out = await run(format)
        if (round >= 5) times[name].push(performance.now() - started)
        bytes[name] = out
      }
    }
    writeFileSync(join(dir, `litho.${format}`), bytes['litho render()'])
    writeFileSync(join(dir, `takumi.${format}`), bytes.takumi)
    const theirs = quantile(times.takumi, 0.5)
    for (const name of Object.keys(engines)) {
      const median = quantile(times[name], 0.5)
      const entry = { median, p90: quantile(times[name], 0.9), bytes: bytes[name].length, ratio: median / theirs }
      results[`takumi.${format}.${name}`] = entry
      const ratio = name === 'takumi' ? '' : `${entry.ratio.toFixed(2)}x`
      console.log(`${format.padEnd(7)} ${name.padEnd(15)} ${ms(entry.median)}  ${ms(entry.p90)}  ${(entry.bytes / 1024).toFixed(0).padStart(4)} KB   ${ratio}`)
    }
  }
  console.log(`(outputs of the last round: ${dir}/{litho,takumi}.{jpeg,png,webp})`)

  // 2. Throughput on the machine's cores: our 2-thread pool against Takumi with 2 renders in flight.
  const total = quick ? 16 : 60
  const throughput = async (run, inFlight) => {
    let next = 0
    const started = performance.now()
    await Promise.all(Array.from({ length: inFlight }, async () => { while (next++ < total) await run('jpeg') }))
    return total / ((performance.now() - started) / 1000)
  }
  const ours = await throughput(engines['litho pool'], 4)
  const theirs = await throughput(engines.takumi, 2)
  results['takumi.throughput'] = { litho: ours, takumi: theirs }
  console.log(`\nThroughput, JPEG, ${total} renders: litho pool (2 threads, 4 in flight) ${ours.toFixed(1)}/s, takumi (2 in flight) ${theirs.toFixed(1)}/s (load ${load()})`)
  await pool.close()
  await renderer.close()

  // 3. Cold start in fresh processes: import, then the first JPEG of the card.
  const runs = quick ? 1 : 3
  console.log(`\nCold start in a fresh process, median of ${runs} (ms; load ${load()})\n`)
  console.log('engine          import   first render   total')
  for (const engine of ['litho', 'litho-pool', 'takumi']) {
    const samples = Array.from({ length: runs }, () => child('cold-start.mjs', [engine, assetsFile]))
    const pick = (key) => quantile(samples.map((s) => s[key]), 0.5)
    results[`takumi.cold.${engine}`] = { importMs: pick('importMs'), firstRenderMs: pick('firstRenderMs'), totalMs: pick('totalMs') }
    console.log(`${engine.padEnd(14)} ${ms(pick('importMs'))}   ${ms(pick('firstRenderMs'))}      ${ms(pick('totalMs'))}`)
  }
  // Not a target: the first render of an application that called renderer.ready() at start-up.
  {
    const samples = Array.from({ length: runs }, () => child('cold-start.mjs', ['litho-ready', assetsFile]))
    const pick = (key) => quantile(samples.map((s) => s[key]), 0.5)
    results['takumi.cold.litho-ready'] = { importMs: pick('importMs'), readyMs: pick('readyMs'), firstRenderMs: pick('firstRenderMs'), totalMs: pick('totalMs') }
    console.log(`(litho with renderer.ready() at start-up: ready() ${ms(pick('readyMs')).trim()} ms, then the first render ${ms(pick('firstRenderMs')).trim()} ms)`)
  }

  // 4. Memory: RSS after N renders, each engine in a fresh process.
  const renders = quick ? 60 : 300
  console.log(`\nRSS after ${renders} renders (JPEG, PNG, WebP in turn), each in a fresh process (load ${load()})\n`)
  for (const engine of ['litho', 'litho-pool', 'takumi']) {
    const { rssMb } = child('takumi-rss.mjs', [engine, assetsFile, String(renders)])
    results[`takumi.rss.${engine}`] = { renders, rssMb }
    console.log(`${engine.padEnd(14)} ${rssMb.toFixed(0).padStart(5)} MB`)
  }
  return true
}

/** The targets, as [label, value, met, shown] rows for the targets table. */
export function takumiTargets(results) {
  const rows = []
  for (const format of ['jpeg', 'png', 'webp']) {
    for (const engine of ['litho render()', 'litho pool']) {
      const entry = results[`takumi.${format}.${engine}`]
      if (entry) rows.push([`${format.toUpperCase()} ${engine} median < Takumi`, entry.ratio, (v) => v < 1, (v) => `${v.toFixed(2)}x`])
    }
  }
  const jpeg = results['takumi.jpeg.litho render()']?.median
  const rss = (engine) => results[`takumi.rss.${engine}`]?.rssMb
  rows.push(
    ['JPEG 1080x1080 render() ≤ 20 ms', jpeg, (v) => v <= 20, (v) => `${v.toFixed(1)} ms`],
    ['import @litho/core ≤ 150 ms', results['takumi.cold.litho']?.importMs, (v) => v <= 150, (v) => `${v.toFixed(0)} ms`],
    ['first render ≤ 300 ms', results['takumi.cold.litho']?.firstRenderMs, (v) => v <= 300, (v) => `${v.toFixed(0)} ms`],
    ['RSS in-process ≤ Takumi', rss('litho'), (v) => v <= (rss('takumi') ?? 110), (v) => `${v.toFixed(0)} MB vs ${(rss('takumi') ?? 110).toFixed(0)} MB`],
    ['RSS pool ≤ 400 MB', rss('litho-pool'), (v) => v <= 400, (v) => `${v.toFixed(0)} MB`],
  )
  return rows.filter(([, value]) => value !== undefined)
}
