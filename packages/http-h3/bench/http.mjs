// `pnpm bench:http`: the HTTP layer in front of the render pool, measured against a real
// `litho serve` on the embedded default (filesystem data dir), as a user runs it.
//
//   1. a temp data dir, an `unlimited` user, a key and the 1080x1080 reference card,
//      published, all through the CLI;
//   2. `litho serve --port 0 --threads N` as a child process;
//   3. the baseline: the same render in-process on a render pool of N threads, one at a time;
//   4. autocannon GET renders at 1, 8 and 32 connections, a fresh title on every request (so
//      the output cache never answers): req/s, p50, p99, non-2xx; the pool's own throughput at
//      full concurrency in the same run (1 and N threads, with the cores busy) to hold c=32 to;
//   5. a repeat of one identical GET render (the output cache answers): p50;
//   6. POST /bulk with 25 items (hosted delivery: files stored in the data dir);
//   7. SIGTERM, which must exit 0; the server's peak RSS (VmHWM) is read just before.
//
// Runs against the built packages (dist/). Options:
//   --quick        shorter runs (for a smoke run)
//   --threads=N    render threads, for the server and the baseline pool (default: cores)
//   --duration=S   seconds per autocannon run (default 10, --quick 3)
//   --output-cache-mb=N   the server's output cache (default: serve's own, 64; 0 turns it off)
//   --profile=DIR  run the server with --cpu-prof into DIR (main thread and render workers), to
//                  see where the server's CPU goes under load (open the .cpuprofile files in
//                  Chrome DevTools or speedscope)
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { Agent, get } from 'node:http'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { CLI, cannon as runCannon, median, peakRssMb, processCpu, quantile, startServer } from './_serve.mjs'
import { createRenderPool, renderDesign } from '../../core/dist/index.js'
import { createBackends } from '../dist/index.js'
import { referenceDesigns } from '../../testing/dist/index.js'
import { calibrate } from '../../core/bench/calibrate.mjs'

const argv = process.argv.slice(2)
const quick = argv.includes('--quick')
const option = (name) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const threads = Number(option('threads') ?? availableParallelism())
const duration = Number(option('duration') ?? (quick ? 3 : 10))
const CONNECTIONS = [1, 8, 32]
const BASELINE_RENDERS = quick ? 10 : 30
const INTERLEAVED_PAIRS = quick ? 15 : 40
const REPEATS = quick ? 200 : 1000
const POOL_SECONDS = quick ? 3 : 8
// A fresh title on every request and every in-process render: nothing that depends on the text is reused.
let titles = 0
const freshTitle = () => `Bench title ${++titles} ${process.pid}`
const BULK_RUNS = quick ? 2 : 5
const BULK_ITEMS = 25
const run = promisify(execFile)
const results = { threads, duration, connections: {}, failures: [] }


/** autocannon; `fresh`: every request its own title (setupRequest runs per request). */
function cannon({ fresh = false, ...options }) {
  const path = new URL(options.url)
  const requests = fresh ? [{ setupRequest: (req) => ({ ...req, path: `${path.pathname}${path.search}&title.text=${encodeURIComponent(freshTitle())}` }) }] : undefined
  return runCannon({ ...options, requests })
}
const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1)).padStart(7)
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ')
const fail = (message) => {
  results.failures.push(message)
  process.exitCode = 1
  console.log(`\n!!! ${message}\n`)
}

console.log(`HTTP benchmark: litho serve, ${threads} render thread(s), ${availableParallelism()} cores, load average ${load()}${quick ? ' (quick)' : ''}`)

// Calibration (calibrate.mjs): lets figures from different runs be compared.
results.calibration = await calibrate()

// 1. Account, key and design, through the CLI on a fresh data dir.
const dataDir = await mkdtemp(join(tmpdir(), 'litho-bench-http-'))
let server
let pool
let userId
let renderCode
try {
  const litho = async (...args) => JSON.parse((await run(process.execPath, [CLI, ...args, '--data', dataDir])).stdout)
  const { card1080 } = await referenceDesigns()
  const designFile = join(dataDir, 'card1080.json')
  await writeFile(designFile, JSON.stringify(card1080))
  const email = 'bench@example.com'
  userId = (await litho('users', 'create', '--email', email, '--password', 'bench password 1234', '--plan', 'unlimited')).userId
  const { key } = await litho('keys', 'create', '--email', email)
  renderCode = (await litho('designs', 'import', '--email', email, designFile, '--publish')).renderCode
  // A text-only card beside it: what a cache hit costs when the design record is small (the
  // reference card embeds its photo as a 500 KB data URI, read and parsed on every request).
  const textFile = join(dataDir, 'text1080.json')
  await writeFile(textFile, JSON.stringify({ version: 2, width: 1080, height: 1080, background: '#1d3557', components: [{ key: 'title', type: 'text', x: 60, y: 60, width: 960, height: 200, text: 'Hello', fontSize: 64, color: '#ffffff', dynamic: ['text'] }] }))
  const textCode = (await litho('designs', 'import', '--email', email, textFile, '--publish')).renderCode

  // 2. The server, once its workers are warm.
  const cacheMb = option('output-cache-mb')
  const profile = option('profile')
  server = await startServer(['serve', '--port', '0', '--data', dataDir, '--threads', String(threads), ...(cacheMb === undefined ? [] : ['--output-cache-mb', cacheMb])], process.env, profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])
  const renderUrl = `${server.url}/v1/${renderCode}?format=jpeg`
  const headers = { 'dma-api-key': key }
  {
    const res = await fetch(renderUrl, { headers })
    const bytes = Buffer.from(await res.arrayBuffer())
    const type = res.headers.get('content-type')
    if (res.status !== 200 || !type?.startsWith('image/jpeg') || bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new Error(`GET render: expected a 200 JPEG, received ${res.status} ${type}: ${bytes.subarray(0, 200).toString()}`)
    results.jpegBytes = bytes.length
    console.log(`Server: ${server.url}, GET /v1/<card>?format=jpeg → 200 image/jpeg, ${(bytes.length / 1024).toFixed(0)} KB`)
  }

  // 3. The baseline: the same render, in-process, one at a time on a warm pool.
  pool = createRenderPool({ threads })
  await pool.ready()
  const renderInProcess = async (n) => {
    const times = []
    for (let i = 0; i < n; i++) {
      const t = performance.now()
      await pool.render(card1080, { format: 'jpeg', overrides: { 'title.text': freshTitle() } })
      times.push(performance.now() - t)
    }
    return times
  }
  await renderInProcess(3)

  // 4. autocannon, after a short warm-up of the server's workers and the HTTP path. The
  // in-process baseline runs just before and just after the 1-connection run (timings drift
  // over minutes on shared machines), and the overhead is against both.
  // The pool's own throughput at full concurrency (twice as many clients as threads), fresh titles.
  results.pool = await poolThroughput(pool, card1080, threads)
  const pool1 = createRenderPool({ threads: 1 })
  await pool1.ready()
  results.pool1 = await poolThroughput(pool1, card1080, 1)
  await pool1.close()
  console.log(`Pool throughput, fresh title per render, ${POOL_SECONDS} s each: 1 thread ${results.pool1.rps.toFixed(1)}/s (${results.pool1.cores.toFixed(2)} cores busy), ${threads} threads ${results.pool.rps.toFixed(1)}/s (${results.pool.cores.toFixed(2)} cores busy): ${(results.pool.rps / results.pool1.rps).toFixed(2)}x`)

  console.log(`\nGET render of the 1080x1080 card as JPEG, a fresh title per request, ${duration} s per run (ms)\n`)
  await cannon({ url: renderUrl, headers, connections: 8, duration: quick ? 1 : 3, fresh: true })
  const floor = await cannon({ url: `${server.url}/healthz`, connections: 1, duration: quick ? 1 : 2 })
  results.healthzP50 = floor.p50
  const before = await renderInProcess(BASELINE_RENDERS)
  console.log('connections     req/s      p50      p99     mean   requests   non-2xx')
  for (const connections of CONNECTIONS) {
    const cpu = connections === 32 ? await processCpu(server.pid) : undefined
    // The main thread alone (its task id is the pid): HTTP, auth, the meter and the design read, no rendering.
    const mainCpu = connections === 32 ? await processCpu(server.pid, server.pid) : undefined
    const client = process.cpuUsage()
    const r = await cannon({ url: renderUrl, headers, connections, duration, fresh: true })
    const clientUsed = process.cpuUsage(client)
    // The client's CPU (this process: autocannon), per response: it shares the cores with the server.
    r.clientMs = (clientUsed.user + clientUsed.system) / 1000 / Math.max(1, r.ok)
    if (cpu !== undefined) {
      r.cores = ((await processCpu(server.pid)) - cpu) / (r.seconds * 1000)
      r.serverMs = (r.cores * r.seconds * 1000) / Math.max(1, r.ok)
      if (mainCpu !== undefined) r.mainThreadMs = ((await processCpu(server.pid, server.pid)) - mainCpu) / Math.max(1, r.ok)
    }
    results.connections[connections] = r
    console.log(`${String(connections).padStart(11)}   ${r.rps.toFixed(1).padStart(7)}  ${fmt(r.p50)}  ${fmt(r.p99)}  ${fmt(r.mean)}   ${String(r.ok).padStart(8)}   ${String(r.non2xx).padStart(7)}${r.non2xx ? `  ← ${JSON.stringify(r.statusCodes)}` : ''}`)
    if (r.non2xx || r.errors || r.timeouts) fail(`GET render at ${connections} connections: ${r.non2xx} non-2xx responses ${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} timeouts`)
    if (connections === 1) {
      results.baselineAfter = median(await renderInProcess(BASELINE_RENDERS))
      results.interleaved = await interleaved(renderUrl, headers, () => renderInProcess(1).then(([ms]) => ms))
    }
  }
  // The pool again right after the c=32 run (drift over minutes on shared machines): c=32 is held to the mean.
  const poolAfter = await poolThroughput(pool, card1080, threads)
  results.poolBefore = results.pool.rps
  results.pool = { rps: (results.pool.rps + poolAfter.rps) / 2, cores: (results.pool.cores + poolAfter.cores) / 2 }
  const c32 = results.connections[32]
  console.log(`c=32: ${c32.rps.toFixed(1)} req/s against the pool's ${results.pool.rps.toFixed(1)}/s (${results.poolBefore.toFixed(1)} before, ${poolAfter.rps.toFixed(1)} after the HTTP runs): ${((c32.rps / results.pool.rps) * 100).toFixed(0)} %; server process ${c32.cores === undefined ? '?' : c32.cores.toFixed(2)} cores busy (${c32.serverMs === undefined ? '?' : c32.serverMs.toFixed(1)} ms CPU per request, workers included; the pool ${((results.pool.cores * 1000) / results.pool.rps).toFixed(1)} ms per render; the server's main thread ${c32.mainThreadMs === undefined ? '?' : c32.mainThreadMs.toFixed(1)} ms of it), client ${c32.clientMs.toFixed(1)} ms CPU per request`)

  // 5. A repeat of one identical GET render: the output cache answers (X-Litho-Cache: hit).
  results.repeat = await repeatGet(`${renderUrl}&title.text=${encodeURIComponent('The same title')}`, headers)
  console.log(`\nRepeat of one identical GET render (node:http, keep-alive, body read), ${REPEATS} requests: p50 ${results.repeat.p50.toFixed(2)} ms, p99 ${results.repeat.p99.toFixed(2)} ms, ${results.repeat.hits} of ${REPEATS} X-Litho-Cache: hit`)
  results.repeatText = await repeatGet(`${server.url}/v1/${textCode}?format=jpeg&title.text=Same`, headers)
  console.log(`The same for a text-only card (a small design record): p50 ${results.repeatText.p50.toFixed(2)} ms, p99 ${results.repeatText.p99.toFixed(2)} ms, ${results.repeatText.hits} of ${REPEATS} hits`)
  const repeatCannon = await cannon({ url: `${renderUrl}&title.text=${encodeURIComponent('The same title')}`, headers, connections: 1, duration: quick ? 2 : 5 })
  results.repeatCannon = repeatCannon
  console.log(`The same through autocannon at 1 connection: ${repeatCannon.rps.toFixed(0)} req/s, p50 ${repeatCannon.p50.toFixed(2)} ms, p99 ${repeatCannon.p99.toFixed(2)} ms`)
  results.baselineBefore = median(before)
  const after = results.baselineAfter
  results.baseline = (results.baselineBefore + after) / 2
  const c1 = results.connections[1]
  results.overhead = (c1.p50 - results.baseline) / results.baseline
  console.log(`\nIn-process, same render on a warm ${threads}-thread pool, one at a time: median ${results.baselineBefore.toFixed(1)} ms before, ${after.toFixed(1)} ms after the 1-connection run`)
  console.log(`HTTP at 1 connection: p50 ${c1.p50.toFixed(1)} ms against ${results.baseline.toFixed(1)} ms in-process: ${(c1.p50 - results.baseline).toFixed(1)} ms, ${(results.overhead * 100).toFixed(1)} % (GET /healthz round trip: p50 ${floor.p50.toFixed(2)} ms)`)
  const il = results.interleaved
  console.log(`Interleaved, ${INTERLEAVED_PAIRS} pairs of one GET (node:http, keep-alive, body discarded) and one in-process render: median ${il.http.toFixed(1)} ms against ${il.inProcess.toFixed(1)} ms, median difference within a pair ${il.difference.toFixed(1)} ms, ${(il.overhead * 100).toFixed(1)} %`)
  console.log('(the interleaved figure has no drift between blocks: each pair runs within about 100 ms)')

  // 6. Bulk: 25 items of the same design, one title each, stored as hosted files.
  const body = JSON.stringify({ items: Array.from({ length: BULK_ITEMS }, (_, i) => ({ designId: renderCode, format: 'jpeg', overrides: { 'title.text': `Slide ${i + 1}` } })) })
  const bulk = async () => {
    const t = performance.now()
    const res = await fetch(`${server.url}/bulk`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body })
    const json = await res.json()
    const ms = performance.now() - t
    const warnings = json.results?.flatMap((row) => row.warnings ?? []) ?? []
    const errors = json.results?.filter((row) => !row.success).map((row) => row.error) ?? []
    if (res.status !== 200 || json.summary?.succeeded !== BULK_ITEMS) fail(`POST /bulk: ${res.status}, summary ${JSON.stringify(json.summary)}, errors ${JSON.stringify([...new Set(errors)])}${json.message ? `, ${json.message}` : ''}`)
    if (warnings.length > 0) fail(`POST /bulk: warnings ${JSON.stringify([...new Set(warnings)])}`)
    return ms
  }
  await bulk() // warm-up
  const bulkTimes = []
  for (let i = 0; i < BULK_RUNS; i++) bulkTimes.push(await bulk())
  // The same 25 renders in-process, 4 at a time (the bulk endpoint's concurrency), no storage.
  const bulkInProcess = []
  for (let k = -1; k < BULK_RUNS; k++) {
    const t = performance.now()
    let next = 0
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (next < BULK_ITEMS) await pool.render(card1080, { format: 'jpeg', overrides: { 'title.text': `Slide ${++next}` } })
    }))
    if (k >= 0) bulkInProcess.push(performance.now() - t)
  }
  results.bulk = { runs: BULK_RUNS, median: median(bulkTimes), min: Math.min(...bulkTimes), max: Math.max(...bulkTimes), perItem: median(bulkTimes) / BULK_ITEMS, inProcess: median(bulkInProcess) }
  results.storedFiles = await countFiles(dataDir)
  console.log(`\nPOST /bulk with ${BULK_ITEMS} items (JPEG, hosted), ${BULK_RUNS} runs after a warm-up: median ${results.bulk.median.toFixed(0)} ms (${results.bulk.min.toFixed(0)}–${results.bulk.max.toFixed(0)}), ${results.bulk.perItem.toFixed(1)} ms per item; the same ${BULK_ITEMS} renders in-process, 4 at a time: ${results.bulk.inProcess.toFixed(0)} ms`)
} finally {
  await pool?.close()
  // 7. A clean stop, after reading the server's peak RSS.
  if (server) {
    results.serverPeakRssMb = await peakRssMb(server.pid)
    if (results.serverPeakRssMb !== undefined) console.log(`\nServer peak RSS (VmHWM, workers included): ${results.serverPeakRssMb.toFixed(0)} MB`)
    const code = await server.stop()
    results.exitCode = code
    console.log(`\nSIGTERM: server exited with ${code}`)
    if (code !== 0) fail(`litho serve exited with ${code} after SIGTERM\n${server.log.join('\n')}`)
    const errors = server.log.filter((line) => /error|warn/i.test(line))
    if (errors.length > 0) fail(`server logged:\n${errors.join('\n')}`)
    if (code === 0 && userId) {
      // Where the overhead goes: the service's own work per GET render (design read from the
      // data dir and validated, one render metered), timed in-process with a renderer that
      // returns at once, on the same data dir once the server has stopped.
      const backends = await createBackends({ dataDir, filesBaseUrl: `${server.url}/files`, env: {} })
      const bytes = new Uint8Array(results.jpegBytes)
      const renderer = { render: async () => ({ bytes, contentType: 'image/jpeg', format: 'jpeg', width: 1080, height: 1080, variation: 'master', warnings: [] }) }
      const services = { designs: backends.designs, meter: backends.meter, files: backends.files, renderer }
      const request = { account: { id: userId, plan: 'unlimited' }, renderCode, params: { format: 'jpeg' }, overrides: new URLSearchParams('format=jpeg') }
      const times = []
      for (let i = 0; i < 35; i++) {
        const t = performance.now()
        await renderDesign(services, request)
        if (i >= 5) times.push(performance.now() - t)
      }
      await backends.dispose()
      results.serviceWork = median(times)
      console.log(`Service work per GET render outside the renderer and HTTP (design read and validated, render metered): median ${results.serviceWork.toFixed(1)} ms`)
    }
  }
  await rm(dataDir, { recursive: true, force: true })
}

// Summary and the target of the issue.
const c = results.connections
console.log(`\nSummary (load average ${load()})\n`)
console.log('measure                                   value')
for (const n of CONNECTIONS) console.log(`${`GET render, ${n} connection${n > 1 ? 's' : ''}`.padEnd(40)}  ${c[n].rps.toFixed(1)} req/s, p50 ${c[n].p50.toFixed(1)} ms, p99 ${c[n].p99.toFixed(1)} ms, ${c[n].non2xx} non-2xx`)
console.log(`${'in-process render (baseline)'.padEnd(40)}  median ${results.baseline.toFixed(1)} ms`)
console.log(`${'HTTP overhead, 1 connection (autocannon)'.padEnd(40)}  ${(c[1].p50 - results.baseline).toFixed(1)} ms, ${(results.overhead * 100).toFixed(1)} %`)
console.log(`${'HTTP overhead, interleaved lean client'.padEnd(40)}  ${results.interleaved.difference.toFixed(1)} ms, ${(results.interleaved.overhead * 100).toFixed(1)} % (medians ${results.interleaved.http.toFixed(1)} and ${results.interleaved.inProcess.toFixed(1)} ms)`)
if (results.serviceWork !== undefined) console.log(`${'service work in it (no HTTP, no render)'.padEnd(40)}  ${results.serviceWork.toFixed(1)} ms: design read + validated, render metered`)
console.log(`${'pool throughput, 1 and N threads'.padEnd(40)}  ${results.pool1.rps.toFixed(1)}/s (${results.pool1.cores.toFixed(2)} cores busy), ${results.pool.rps.toFixed(1)}/s (${results.pool.cores.toFixed(2)} cores busy): ${(results.pool.rps / results.pool1.rps).toFixed(2)}x`)
console.log(`${'repeat of one GET render (cache hit)'.padEnd(40)}  p50 ${results.repeat.p50.toFixed(2)} ms, p99 ${results.repeat.p99.toFixed(2)} ms (autocannon p50 ${results.repeatCannon.p50.toFixed(2)} ms); text-only card p50 ${results.repeatText.p50.toFixed(2)} ms`)
if (results.serverPeakRssMb !== undefined) console.log(`${'server peak RSS'.padEnd(40)}  ${results.serverPeakRssMb.toFixed(0)} MB`)
console.log(`${`POST /bulk, ${BULK_ITEMS} items`.padEnd(40)}  median ${results.bulk.median.toFixed(0)} ms, ${results.bulk.perItem.toFixed(1)} ms per item`)
// What c=32 would reach where it alone had the cores: the pool's CPU per render against the server's and the client's per request.
const cpuRatio = c[32].serverMs === undefined ? undefined : (results.pool.cores * 1000) / results.pool.rps / (c[32].serverMs + c[32].clientMs)
console.log('\nTargets\n')
const targets = [
  ['HTTP adds < 10 % at 1 connection', results.overhead < 0.1, `${(results.overhead * 100).toFixed(1)} % (autocannon p50 against the pool median)`],
  ['no non-2xx at 1, 8, 32 connections', CONNECTIONS.every((n) => c[n].non2xx === 0), CONNECTIONS.map((n) => c[n].non2xx).join(', ')],
  ['repeat of one GET render: p50 <= 5 ms', results.repeat.p50 <= 5 && results.repeat.hits === REPEATS, `${results.repeat.p50.toFixed(2)} ms, ${results.repeat.hits}/${REPEATS} hits`],
  ['c=32 >= 90 % of the pool throughput', c[32].rps >= 0.9 * results.pool.rps, `${((c[32].rps / results.pool.rps) * 100).toFixed(0)} % (${c[32].rps.toFixed(1)} of ${results.pool.rps.toFixed(1)}/s; p50 ${c[32].p50.toFixed(0)} ms, p99 ${c[32].p99.toFixed(0)} ms)${cpuRatio === undefined ? '' : `; by CPU per request ${(cpuRatio * 100).toFixed(0)} %`}`],
  ['server peak RSS <= 600 MB', results.serverPeakRssMb !== undefined && results.serverPeakRssMb <= 600, results.serverPeakRssMb === undefined ? 'not measured (no /proc)' : `${results.serverPeakRssMb.toFixed(0)} MB`],
  [`bulk: ${BULK_ITEMS} of ${BULK_ITEMS} succeed`, !results.failures.some((f) => f.startsWith('POST /bulk')), results.failures.some((f) => f.startsWith('POST /bulk')) ? 'no' : 'yes'],
  ['SIGTERM exits 0', results.exitCode === 0, String(results.exitCode)],
]
for (const [label, ok, shown] of targets) console.log(`${ok ? 'met   ' : 'MISSED'}  ${label.padEnd(36)} ${shown}`)
if (results.failures.length > 0) console.log(`\n!!! ${results.failures.length} failure(s), see above`)
if (process.env.BENCH_JSON) console.log(JSON.stringify(results))


/**
 * One GET (node:http, keep-alive, body discarded) and one in-process render, alternately (the
 * order swapped every pair), so drift over the run affects both alike.
 */
async function interleaved(url, headers, renderOnce) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const fetchOnce = () =>
    new Promise((resolve, reject) => {
      const t = performance.now()
      // A fresh title: the output cache must not answer (that is measured apart, repeatGet).
      get(`${url}&title.text=${encodeURIComponent(freshTitle())}`, { agent, headers }, (res) => {
        res.on('data', () => {})
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t) : reject(new Error(`GET render: ${res.statusCode}`))))
      }).on('error', reject)
    })
  const http = []
  const inProcess = []
  await fetchOnce()
  for (let i = 0; i < INTERLEAVED_PAIRS; i++) {
    if (i % 2) http.push(await fetchOnce())
    inProcess.push(await renderOnce())
    if (!(i % 2)) http.push(await fetchOnce())
  }
  agent.destroy()
  // The median of the pairs' differences: each pair ran within ~100 ms, so drift cancels out.
  const difference = median(http.map((ms, i) => ms - inProcess[i]))
  return { pairs: INTERLEAVED_PAIRS, http: median(http), inProcess: median(inProcess), difference, overhead: difference / median(inProcess) }
}


async function countFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile() && /\.jpe?g$/.test(e.name)).length
}

/** Renders per second of `pool` with twice as many clients as threads for POOL_SECONDS, and the cores the process kept busy. */
async function poolThroughput(pool, design, n) {
  const end = performance.now() + POOL_SECONDS * 1000
  const cpu = process.cpuUsage()
  const t = performance.now()
  let done = 0
  await Promise.all(Array.from({ length: 2 * n }, async () => {
    while (performance.now() < end) {
      await pool.render(design, { format: 'jpeg', overrides: { 'title.text': freshTitle() } })
      done++
    }
  }))
  const wall = performance.now() - t
  const used = process.cpuUsage(cpu)
  return { rps: done / (wall / 1000), cores: (used.user + used.system) / 1000 / wall }
}

/** Sequential GETs of one URL (node:http, keep-alive, body read and discarded): p50, p99 and the cache hits. */
async function repeatGet(url, headers) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  let hits = 0
  const once = () =>
    new Promise((resolve, reject) => {
      const t = performance.now()
      get(url, { agent, headers }, (res) => {
        if (res.headers['x-litho-cache'] === 'hit') hits++
        res.on('data', () => {})
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t) : reject(new Error(`GET render: ${res.statusCode}`))))
      }).on('error', reject)
    })
  for (let i = 0; i < 20; i++) await once()
  hits = 0
  const times = []
  for (let i = 0; i < REPEATS; i++) times.push(await once())
  agent.destroy()
  return { p50: median(times), p99: quantile(times, 0.99), hits }
}


