// `pnpm bench:scale`: two `litho serve` instances on one Redis and one S3 bucket, under a mixed
// load, then the meter checked against what was served (docs/scale-out.md).
//
//   1. an S3-compatible server (s3rver, as the tests start it) and a fresh Redis key prefix on
//      the Redis of LITHO_REDIS_URL (default redis://127.0.0.1:6379; the bench fails if it is
//      not there);
//   2. through the CLI on those stores: an `unlimited` owner with a key, a token and the 1080x1080
//      reference card, and a `free` owner with a key and the same card (LITHO_PLANS gives the
//      free plan --free-renders renders, default 15, so that its limit is met within the run);
//   3. two `litho serve --threads 1` processes, one public URL (as behind a load balancer), each
//      with LITHO_RENDER_QUEUE at --render-queue (default twice the connections): the default, 32
//      per thread, is less than the renders 64 clients (some posting bulks of 10, 4 at a time) put
//      on one instance, and the overflow is answered 503;
//   4. for --duration seconds, --connections clients spread over both instances: GET renders of
//      the unlimited owner (a fresh title each, so the output cache never answers), GET renders of
//      the free owner (429 once its 100 are used), POST /bulk of 10 hosted items and export jobs
//      (hosted); the RSS of each instance sampled every second;
//   5. every export job polled until it succeeded;
//   6. the meter read from Redis: renders counted must equal the renders served with a 2xx, per
//      owner; every answer but the free owner's 429s must be a 2xx.
//
// The clients are node:http loops, not autocannon: each finishes the request it has in flight when
// the time is up, so every render the meter counts was answered and counted here (autocannon
// drops the requests in flight when its duration ends). Runs against the built packages (dist/).
// Options: --duration=S (default 30, --quick 5), --connections=N (default 64, --quick 16),
// --free-renders=N (default 15), --render-queue=N (default 2 x connections).
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { Agent, createServer, request } from 'node:http'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import Redis from 'ioredis'
import S3rver from 's3rver'
import { createBackends } from '../dist/index.js'
import { referenceDesigns } from '../../testing/dist/index.js'
import { CLI, median, peakRssMb, quantile, startServer } from './_serve.mjs'

const argv = process.argv.slice(2)
const quick = argv.includes('--quick')
const option = (name) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const duration = Number(option('duration') ?? (quick ? 5 : 30))
const connections = Number(option('connections') ?? (quick ? 16 : 64))
if (!(duration > 0) || !(connections >= 8)) throw new Error('--duration must be > 0 and --connections >= 8')
const REDIS_URL = process.env.LITHO_REDIS_URL || 'redis://127.0.0.1:6379'
const PUBLIC_URL = 'http://litho.bench'
const BULK_ITEMS = 10
// The free plan's renders here: small enough that its owner meets the limit within the run.
const FREE_RENDERS = Number(option('free-renders') ?? 15)
// Renders each instance lets wait (LITHO_RENDER_QUEUE): every client's request, with room for a
// bulk's 4 items at once and the export jobs, so that no render meets a full queue (503).
const RENDER_QUEUE = Number(option('render-queue') ?? 2 * connections)
const failures = []
const fail = (message) => {
  failures.push(message)
  process.exitCode = 1
  console.log(`\n!!! ${message}\n`)
}
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ')
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

console.log(`Scale-out benchmark: 2 instances (1 render thread each, render queue ${RENDER_QUEUE}), Redis + S3, ${connections} connections for ${duration} s; ${availableParallelism()} cores, load average ${load()}${quick ? ' (quick)' : ''}`)

// 1. Redis (must be there) and S3.
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true })
redis.on('error', () => {})
try {
  await redis.connect()
  await redis.ping()
} catch (error) {
  console.error(`bench:scale needs Redis at ${REDIS_URL}: ${error.message}`)
  process.exit(1)
}
const root = await mkdtemp(join(tmpdir(), 'litho-bench-scale-'))
const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(root, 's3'), configureBuckets: [{ name: 'litho-bench' }] })
const { port: s3Port } = await s3.run()
const prefix = `litho-bench:${randomBytes(6).toString('hex')}`
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('LITHO_'))),
  LITHO_REDIS_URL: REDIS_URL,
  LITHO_REDIS_PREFIX: prefix,
  LITHO_URL_SIGNING_KEY: randomBytes(32).toString('base64url'),
  LITHO_RENDER_LINK_KEY: randomBytes(32).toString('base64url'),
  LITHO_S3_BUCKET: 'litho-bench',
  LITHO_S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
  LITHO_S3_ACCESS_KEY_ID: 'S3RVER',
  LITHO_S3_SECRET_ACCESS_KEY: 'S3RVER',
  LITHO_RENDER_QUEUE: String(RENDER_QUEUE),
  LITHO_PLANS: JSON.stringify({ free: { renders: FREE_RENDERS, templates: 50, storageBytes: 500_000_000 }, unlimited: { renders: 1_000_000, templates: null, storageBytes: null } }),
}

const servers = []
const callAgents = []
const results = { duration, connections, cores: availableParallelism() }
try {
  // 2. Owners, keys, designs and a token, through the CLI on the shared stores.
  const run = promisify(execFile)
  const litho = async (...args) => JSON.parse((await run(process.execPath, [CLI, ...args, '--data', join(root, 'admin')], { env })).stdout)
  const { card1080 } = await referenceDesigns()
  const designFile = join(root, 'card1080.json')
  await writeFile(designFile, JSON.stringify(card1080))
  const owner = async (email, plan) => {
    const { userId } = await litho('users', 'create', '--email', email, '--password', 'bench password 1234', '--plan', plan)
    const { key } = await litho('keys', 'create', '--email', email)
    const { id, renderCode } = await litho('designs', 'import', '--email', email, designFile, '--publish')
    return { userId, key, designId: id, renderCode }
  }
  const big = await owner('unlimited@example.com', 'unlimited')
  const free = await owner('free@example.com', 'free')
  const { accessToken } = await litho('token', 'create', '--email', 'unlimited@example.com', '--url', PUBLIC_URL)

  // 3. Two instances behind one public address.
  for (const name of ['a', 'b']) {
    const port = await freePort()
    const server = await startServer(['serve', '--port', String(port), '--threads', '1', '--data', join(root, name), '--public-url', PUBLIC_URL, '--no-console'], env)
    servers.push({ ...server, name, port, rss: [] })
  }
  console.log(`Instances: ${servers.map((s) => `${s.name} on 127.0.0.1:${s.port} (pid ${s.pid})`).join(', ')}`)
  for (let i = 0; i < servers.length; i++) {
    const warm = await call(i, 'GET', `/v1/${big.renderCode}?format=jpeg&title.text=warm`, { 'dma-api-key': big.key })
    if (warm.status !== 200) throw new Error(`warm-up render on ${servers[i].name}: ${warm.status} ${warm.body.slice(0, 200)}`)
  }

  // 4. The load.
  const kinds = {
    render: { loops: connections - Math.floor(connections / 8) - 2 * Math.floor(connections / 16), ...tally() },
    quota: { loops: Math.floor(connections / 8), ...tally() },
    bulk: { loops: Math.floor(connections / 16), ...tally(), items: 0 },
    export: { loops: Math.floor(connections / 16), ...tally(), ids: [] },
  }
  let titles = 0
  const bulkBody = () => JSON.stringify({ items: Array.from({ length: BULK_ITEMS }, () => ({ designId: big.renderCode, format: 'jpeg', overrides: { 'title.text': `Bulk ${++titles}` } })) })
  const step = {
    render: (i) => call(i, 'GET', `/v1/${big.renderCode}?format=jpeg&title.text=${encodeURIComponent(`Title ${++titles}`)}`, { 'dma-api-key': big.key }),
    quota: (i) => call(i, 'GET', `/v1/${free.renderCode}?format=jpeg&title.text=${encodeURIComponent(`Free ${++titles}`)}`, { 'dma-api-key': free.key }),
    bulk: (i) => call(i, 'POST', '/bulk', { 'dma-api-key': big.key, 'content-type': 'application/json' }, bulkBody()),
    export: (i) => call(i, 'POST', `/designs/v2/${big.designId}/export/jobs`, { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }, JSON.stringify({ delivery: 'hosted', format: 'jpeg' })),
  }
  const sampler = setInterval(() => servers.forEach((s) => s.rss.push(rssMb(s.pid))), 1000)
  const started = performance.now()
  const deadline = started + duration * 1000
  let loopIndex = 0
  await Promise.all(
    Object.entries(kinds).flatMap(([kind, k]) =>
      Array.from({ length: k.loops }, async () => {
        const instance = loopIndex++ % servers.length
        while (performance.now() < deadline) {
          const t = performance.now()
          let r
          try {
            r = await step[kind](instance)
          } catch (error) {
            k.errors.push(error.message)
            await sleep(100)
            continue
          }
          k.status[r.status] = (k.status[r.status] ?? 0) + 1
          if (r.status >= 200 && r.status < 300) {
            k.latencies.push(performance.now() - t)
            if (kind === 'bulk') k.items += JSON.parse(r.body).summary?.succeeded ?? 0
            if (kind === 'export') k.ids.push(JSON.parse(r.body).exportId)
          } else if (kind === 'quota' && r.status === 429) await sleep(100) // a client backs off
          else k.bad.push(`${r.status} ${r.body.slice(0, 160)}`)
        }
      }),
    ),
  )
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  results.seconds = seconds

  // 5. Every export job runs to the end.
  const drainStart = performance.now()
  let pending = [...kinds.export.ids]
  const failedJobs = []
  while (pending.length > 0 && performance.now() - drainStart < 180_000) {
    const still = []
    for (let i = 0; i < pending.length; i += 16) {
      await Promise.all(pending.slice(i, i + 16).map(async (id, j) => {
        const r = await call(j % 2, 'GET', `/analytics/exports/${id}`, { authorization: `Bearer ${accessToken}` })
        const status = JSON.parse(r.body).status
        if (status === 'failed') failedJobs.push(`${id}: ${r.body.slice(0, 200)}`)
        else if (status !== 'succeeded') still.push(id)
      }))
    }
    pending = still
    if (pending.length > 0) await sleep(250)
  }
  results.exportDrainMs = performance.now() - drainStart
  if (pending.length > 0) fail(`${pending.length} export jobs not finished 180 s after the load`)
  if (failedJobs.length > 0) fail(`${failedJobs.length} export jobs failed: ${failedJobs.slice(0, 3).join('; ')}`)

  // 6. The meter against what was served.
  const backends = await createBackends({ dataDir: join(root, 'admin'), filesBaseUrl: `${PUBLIC_URL}/files`, env })
  const window = new Date().toISOString().slice(0, 7)
  const counted = { big: await backends.meter.usage({ subject: big.userId, window }), free: await backends.meter.usage({ subject: free.userId, window }) }
  await backends.dispose()
  const ok = (k) => Object.entries(k.status).filter(([s]) => s >= 200 && s < 300).reduce((sum, [, n]) => sum + n, 0)
  // The warm-up renders (one per instance) count too.
  const served = { big: ok(kinds.render) + kinds.bulk.items + ok(kinds.export) + servers.length, free: ok(kinds.quota) }
  results.meter = { counted, served }
  if (counted.big !== served.big) fail(`meter, unlimited owner: ${counted.big} renders counted, ${served.big} served with a 2xx`)
  if (counted.free !== served.free) fail(`meter, free owner: ${counted.free} renders counted, ${served.free} served with a 2xx`)
  const freeAsked = Object.values(kinds.quota.status).reduce((a, b) => a + b, 0)
  if (freeAsked <= FREE_RENDERS) fail(`free owner: only ${freeAsked} renders asked, not past its limit of ${FREE_RENDERS}: the 429s were not exercised`)
  else if (served.free !== FREE_RENDERS) fail(`free owner: ${served.free} renders granted of ${freeAsked} asked; the plan's limit is ${FREE_RENDERS}`)
  for (const [kind, k] of Object.entries(kinds)) {
    if (k.bad.length > 0) fail(`${kind}: ${k.bad.length} answers neither 2xx nor a quota 429, e.g. ${[...new Set(k.bad)].slice(0, 3).join(' | ')}`)
    if (k.errors.length > 0) fail(`${kind}: ${k.errors.length} client errors, e.g. ${[...new Set(k.errors)].slice(0, 3).join(' | ')}`)
  }

  // Report.
  console.log(`\n${seconds.toFixed(1)} s of load (load average ${load()})\n`)
  console.log('kind              loops     2xx/s     p50 ms     p99 ms   statuses')
  for (const [kind, k] of Object.entries(kinds)) {
    const line = `${kind.padEnd(14)} ${String(k.loops).padStart(7)} ${(ok(k) / seconds).toFixed(1).padStart(9)} ${(k.latencies.length ? median(k.latencies) : NaN).toFixed(0).padStart(10)} ${(k.latencies.length ? quantile(k.latencies, 0.99) : NaN).toFixed(0).padStart(10)}   ${JSON.stringify(k.status)}`
    console.log(line)
    results[kind] = { loops: k.loops, okPerSecond: ok(k) / seconds, p50: median(k.latencies), p99: quantile(k.latencies, 0.99), status: k.status, errors: k.errors.length }
  }
  const renders = ok(kinds.render) + ok(kinds.quota) + kinds.bulk.items + ok(kinds.export)
  results.rendersPerSecond = renders / seconds
  console.log(`\nRenders served: ${renders} (${results.rendersPerSecond.toFixed(1)}/s): ${ok(kinds.render)} GET, ${ok(kinds.quota)} GET of the free owner, ${kinds.bulk.items} bulk items, ${ok(kinds.export)} export jobs (all done ${(results.exportDrainMs / 1000).toFixed(1)} s after the load)`)
  console.log(`Meter: unlimited owner ${counted.big} counted, ${served.big} served; free owner ${counted.free} counted, ${served.free} served (${freeAsked} asked, ${kinds.quota.status[429] ?? 0} answered 429)`)
  for (const s of servers) {
    s.peak = await peakRssMb(s.pid)
    const samples = s.rss.filter((x) => x !== undefined)
    console.log(`RSS of ${s.name}: median ${median(samples).toFixed(0)} MB during the load, peak ${s.peak?.toFixed(0) ?? '?'} MB (VmHWM, workers included)`)
    results[`rss_${s.name}`] = { median: median(samples), peak: s.peak }
  }
} finally {
  for (const s of servers) {
    const code = await s.stop()
    if (code !== 0) fail(`instance ${s.name} exited with ${code} after SIGTERM`)
    const errors = s.log.filter((line) => /error|warn/i.test(line))
    if (errors.length > 0) fail(`instance ${s.name} logged:\n${errors.slice(0, 10).join('\n')}`)
  }
  await s3.close()
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000)
    if (keys.length > 0) await redis.del(...keys)
    cursor = next
  } while (cursor !== '0')
  await redis.quit()
  await rm(root, { recursive: true, force: true })
}
if (failures.length > 0) console.log(`\n!!! ${failures.length} failure(s), see above`)
else console.log('\nAll checks met: no answer but the quota\'s 429s was other than 2xx, every export job succeeded, the meter counted exactly what was served.')
if (process.env.BENCH_JSON) console.log(JSON.stringify(results))

/** Counters of one kind of request. */
function tally() {
  return { status: {}, latencies: [], bad: [], errors: [] }
}

/** One request to instance `i` (by address; the public URL is the balancer's), the body read in full. */
function call(i, method, path, headers, body) {
  const { port } = servers[i]
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: callAgents[i] ??= new Agent({ keepAlive: true }), timeout: 120_000 }, (res) => {
      const chunks = []
      const text = (res.headers['content-type'] ?? '').includes('json')
      res.on('data', (chunk) => text && chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error('timeout after 120 s')))
    req.on('error', reject)
    req.end(body)
  })
}

/** Resident memory of a process now, in MB (VmRSS); undefined when it cannot be read. */
function rssMb(pid) {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb === undefined ? undefined : Number(kb) / 1024
  } catch {
    return undefined
  }
}

/** A port free right now (the public URL hides the one `--port 0` would take). */
async function freePort() {
  const probe = createServer()
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address()
  await new Promise((resolve) => probe.close(resolve))
  return port
}
