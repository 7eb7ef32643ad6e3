// What a render costs the calling thread: the reference card (card1080, JPEG, a fresh title per
// render) through the render pool and in-process, as CPU time of the main thread (Linux
// /proc/self/task/<pid>/schedstat, in ns; elsewhere the process's CPU) and wall time.
//
//   node packages/core/bench/main-thread.mjs [--against=DIR[,DIR…]] [--rounds=N] [--batch=N]
//
// --against compares other builds of core (copies of an older dist/, e.g. made with
// `cp -r packages/core/dist packages/core/.dist-before` before a change: inside the package, so
// that its imports resolve), interleaved batch by batch in this process, so that all see the
// same load.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { loadavg } from 'node:os'
import { referenceDesigns } from '../../testing/dist/index.js'

const args = process.argv.slice(2)
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback
const rounds = Number(option('rounds', 8))
const batch = Number(option('batch', 20))
const against = option('against', undefined)

const builds = [['this build', new URL('../dist/index.js', import.meta.url).href]]
if (against) builds.unshift(...against.split(',').map((dir) => [dir.split('/').at(-1), pathToFileURL(resolve(dir, 'index.js')).href]))

/** CPU time of the main thread in ms (schedstat: ns on CPU), or of the process where there is none. */
function mainThreadMs() {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6
  } catch {
    const { user, system } = process.cpuUsage()
    return (user + system) / 1000
  }
}
const processMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const { card1080 } = await referenceDesigns()
let serial = 0
const options = () => ({ format: 'jpeg', quality: 80, overrides: { 'title.text': `A fresh headline for render number ${serial++}, wrapped and clamped` } })

const subjects = []
for (const [label, url] of builds) {
  const core = await import(url)
  const pool = core.createRenderPool({ threads: 2 })
  await pool.ready()
  const inline = core.createRenderer()
  for (let i = 0; i < 5; i++) await Promise.all([pool.render(card1080, options()), inline.render(card1080, options())])
  subjects.push({ label, pool, inline, poolMain: [], poolWall: [], poolProcess: [], inlineMain: [], inlineWall: [], inlineProcess: [] })
}

for (let round = 0; round < rounds; round++) {
  for (const s of subjects) {
    for (const kind of ['pool', 'inline']) {
      const main = mainThreadMs()
      const cpu = processMs()
      for (let i = 0; i < batch; i++) {
        const t = performance.now()
        await s[kind].render(card1080, options())
        s[`${kind}Wall`].push(performance.now() - t)
      }
      s[`${kind}Main`].push((mainThreadMs() - main) / batch)
      s[`${kind}Process`].push((processMs() - cpu) / batch)
    }
  }
}

console.log(`card1080 JPEG, ${rounds} rounds × ${batch} renders per build, interleaved; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
console.log('build            pool: main-thread CPU  process CPU  wall median | render(): main-thread CPU  process CPU  wall median  (ms per render, medians of rounds)')
for (const s of subjects) {
  console.log(
    `${s.label.slice(0, 16).padEnd(16)} ${median(s.poolMain).toFixed(2).padStart(21)} ${median(s.poolProcess).toFixed(1).padStart(12)} ${median(s.poolWall).toFixed(1).padStart(12)} | ${median(s.inlineMain).toFixed(2).padStart(26)} ${median(s.inlineProcess).toFixed(1).padStart(12)} ${median(s.inlineWall).toFixed(1).padStart(12)}`,
  )
}
for (const s of subjects) await Promise.all([s.pool.close(), s.inline.close()])
