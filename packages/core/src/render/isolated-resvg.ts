/**
 * resvg in a child process, for the SVGs that could make it abort (anchor-layers.ts): a Rust
 * panic there ends the child, never the server, and the render is refused as a design the
 * rasterizer cannot draw. Ordinary designs never come here: spawning costs about 100 ms.
 *
 * @module render/isolated-resvg
 */
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { LithoError } from '../errors.js'

/** Raw RGBA pixels, as resvg renders them. */
export interface RenderedPixels {
  pixels: Buffer
  width: number
  height: number
}

// CommonJS on purpose, and given on the command line: it runs the same from src (tests) and
// from dist, with no file of its own to find. Answers an 8-byte header (width, height) and the pixels.
const CHILD = `
const { Resvg } = require(process.env.LITHO_RESVG_PATH)
const chunks = []
process.stdin.on('data', (c) => chunks.push(c))
process.stdin.on('end', () => {
  const image = new Resvg(Buffer.concat(chunks), JSON.parse(process.env.LITHO_RESVG_OPTIONS)).render()
  const header = Buffer.alloc(8)
  header.writeUInt32LE(image.width, 0)
  header.writeUInt32LE(image.height, 4)
  process.stdout.end(Buffer.concat([header, image.pixels]))
})`

// A render of 4096x4096 takes well under this; a child still running then is killed.
const CHILD_TIMEOUT_MS = 60_000

let resvgPath: string | undefined

/**
 * Renders `svg` with resvg in a fresh child process.
 *
 * @throws LithoError `ERR_INVALID_DESIGN` (path `components`) when resvg aborts on it;
 *   `ERR_RENDER_FAILED` when the child cannot run or times out.
 * @example const { pixels, width, height } = await renderIsolated(svg, { fitTo: { mode: 'original' } })
 */
export function renderIsolated(svg: string, options: object): Promise<RenderedPixels> {
  resvgPath ??= createRequire(import.meta.url).resolve('@resvg/resvg-js')
  const env: Record<string, string> = { LITHO_RESVG_PATH: resvgPath, LITHO_RESVG_OPTIONS: JSON.stringify(options) }
  if (process.env.PATH) env.PATH = process.env.PATH
  return new Promise((resolve, reject) => {
    // No inherited NODE_OPTIONS or exec flags (a test runner's loaders), only what the script needs.
    const child = spawn(process.execPath, ['-e', CHILD], { env, stdio: ['pipe', 'pipe', 'pipe'], timeout: CHILD_TIMEOUT_MS })
    const out: Buffer[] = []
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8')
    })
    child.stdin.on('error', () => {}) // a child that died early: the exit below says why
    child.on('error', (error) => reject(new LithoError('ERR_RENDER_FAILED', `the isolated rasterizer could not start: ${error.message}`, { cause: error })))
    child.on('close', (code, signal) => {
      const bytes = Buffer.concat(out)
      if (code === 0 && bytes.length >= 8) {
        const width = bytes.readUInt32LE(0)
        const height = bytes.readUInt32LE(4)
        if (bytes.length === 8 + width * height * 4) return resolve({ pixels: bytes.subarray(8), width, height })
      }
      if (/panicked/.test(stderr)) {
        const message = 'the rasterizer cannot draw this design: components lie so far outside the canvas that it gives up; keep components (and their rotation) within the canvas'
        return reject(new LithoError('ERR_INVALID_DESIGN', `components: ${message}`, { issues: [{ path: 'components', message }] }))
      }
      reject(new LithoError('ERR_RENDER_FAILED', `the isolated rasterizer ended with ${signal ?? `code ${code}`}: ${stderr.trim().slice(0, 500)}`))
    })
    child.stdin.end(svg)
  })
}
