// What the HTTP benchmarks share (`pnpm bench:http`, `pnpm bench:scale`): autocannon without its
// body copies, quantiles, `litho serve` as a child process, and a process's CPU and RSS from /proc.
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

/** The built `litho` CLI. */
export const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))

// autocannon appends every response body to a string (pipelinedRequestsQueue's addBody: `body +=
// chunk`), for body checks this bench never asks for. For a 167 KB JPEG that is about 3 ms of
// the client's CPU per response (measured with process.cpuUsage at c=32: 3.9 ms per request
// against 0.9 ms for a node:http client that discards the body), taken from the same 2 cores the
// server renders on, and absent from the pool's run it is compared with. The body is not
// kept: bytes, status, latency and errors are counted as before.
const PipelinedRequestsQueue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js')
PipelinedRequestsQueue.prototype.addBody = function addBody() {}

/** The median of `xs`. */
export const median = (xs) => quantile(xs, 0.5)
/** The `q` quantile of `xs` (nearest rank). */
export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]
}

/** One autocannon run (`requests`: autocannon's, e.g. a `setupRequest` per request); latencies of the 2xx responses, exact (autocannon's histogram has 1 ms buckets). */
export async function cannon({ url, headers = {}, connections, duration, requests }) {
  const latencies = []
  const instance = autocannon({ url, headers, connections, duration, timeout: 30, ...(requests ? { requests } : {}) })
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms)
  })
  const r = await instance
  const seconds = (r.finish - r.start) / 1000
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]))
  return {
    connections,
    seconds,
    rps: latencies.length / seconds,
    p50: latencies.length ? median(latencies) : NaN,
    p99: latencies.length ? quantile(latencies, 0.99) : NaN,
    mean: latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : NaN,
    ok: latencies.length,
    non2xx: r.non2xx,
    statusCodes,
    errors: r.errors,
    timeouts: r.timeouts,
  }
}

/** Starts `litho serve` with `args` and `env`, resolving once it logs its URL (workers warm): `{ url, pid, log, stop() }`. */
export function startServer(args, env = process.env, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  const log = []
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`litho serve did not report its URL within 120 s:\n${log.join('\n')}`)), 120_000)
    exited.then((code) => reject(new Error(`litho serve exited with ${code} before serving:\n${log.join('\n')}`)))
    let buffered = ''
    const onData = (chunk) => {
      buffered += chunk
      const lines = buffered.split('\n')
      buffered = lines.pop()
      for (const line of lines) {
        log.push(line)
        const url = /^litho: serving (http:\/\/\S+)/.exec(line)?.[1]
        if (url) {
          clearTimeout(timer)
          resolve({
            url,
            pid: child.pid,
            log,
            stop: async () => {
              child.kill('SIGTERM')
              const timeout = setTimeout(() => child.kill('SIGKILL'), 60_000)
              const code = await exited
              clearTimeout(timeout)
              return code
            },
          })
        }
      }
    }
    child.stdout.setEncoding('utf8').on('data', onData)
    child.stderr.setEncoding('utf8').on('data', onData)
  })
}

/** CPU milliseconds a process has used (user + system, all threads), from /proc; undefined elsewhere. */
export async function processCpu(pid, thread) {
  try {
    const fields = (await readFile(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8')).split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // clock ticks (USER_HZ 100)
  } catch {
    return undefined
  }
}

/** A process's peak resident set (VmHWM) in MB, from /proc; undefined elsewhere. */
export async function peakRssMb(pid) {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb === undefined ? undefined : Number(kb) / 1024
  } catch {
    return undefined
  }
}
