// Calibration shared by the benchmarks: the same bare 1080x1080 linear gradient that
// took 18.4 ms when the stack was chosen (resvg render only; docs/benchmarks.md). Timings on shared 2-core machines
// drift by tens of per cent over minutes; this figure lets runs be compared.
import { Resvg } from '@resvg/resvg-js'

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1080"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0f172a"/><stop offset="1" stop-color="#1e3a8a"/></linearGradient></defs><rect width="1080" height="1080" fill="url(#g)"/></svg>'

/** Median milliseconds of 15 resvg renders of the gradient; prints the calibration line. */
export async function calibrate() {
  const times = []
  for (let i = 0; i < 15; i++) {
    const resvg = new Resvg(SVG, { font: { loadSystemFonts: false } })
    const t = performance.now()
    resvg.render()
    times.push(performance.now() - t)
    await new Promise((r) => setImmediate(r))
  }
  times.sort((a, b) => a - b)
  const median = times[7]
  console.log(`Calibration: resvg draws a bare 1080x1080 gradient in ${median.toFixed(1)} ms (18.4 ms when the stack was chosen)`)
  return median
}
