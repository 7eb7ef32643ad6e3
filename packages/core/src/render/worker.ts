/**
 * The render worker thread: one render context per thread (its own image and font
 * caches), warmed at start by rendering a small design so the first real render does
 * not pay for satori's WASM, font parsing and resvg's first decode (~380 ms).
 *
 * @module render/worker
 */
import { workerData } from 'node:worker_threads'
import { Piscina } from 'piscina'
import sharp from 'sharp'
import { LithoError, type LithoErrorCode, type LithoIssue } from '../errors.js'
import type { OutputOptions } from './defaults.js'
import { renderResolved, type RenderResult } from './render-document.js'
import { loadPdfKit } from './pdf.js'
import { createRenderContext, type RendererOptions } from './renderer.js'
import type { ResolvedDocument } from './resolve-document.js'
import { createSourceStore } from './source-handles.js'
import { warmUp } from './warm-up.js'

/** Data every worker starts with. */
export interface WorkerData {
  renderer: RendererOptions
}

/**
 * A task sent to a worker. A render carries a document the pool already resolved (validated,
 * overrides applied, variation chosen) and checked output options: the worker only lays out,
 * rasterizes and encodes. Its large data: URIs are `handles` (render/source-handles), with their
 * `texts` when the worker answered that it lacked one.
 */
export type WorkerTask =
  | { kind: 'warm' }
  | { kind: 'render'; resolved: ResolvedDocument; output: OutputOptions; handles?: string[]; texts?: Record<string, string> }

/**
 * A worker's answer: errors travel as plain data because classes do not survive structured
 * clone. `missing`: the worker lacked the text of a handle and did not render.
 */
export interface WorkerReply {
  ok: boolean
  result?: RenderResult
  error?: { code: LithoErrorCode; message: string; issues?: LithoIssue[]; details?: Record<string, unknown> }
  missing?: true
}

// libvips' operation cache (process-wide, 50 MB by default) never hits for renders:
// every render encodes new pixels. Off, it saves its memory in every render process.
sharp.cache(false)

const context = createRenderContext((workerData as WorkerData | undefined)?.renderer ?? {})
const sources = createSourceStore()

let warmed: Promise<unknown> | undefined

/**
 * The reply with the encoded bytes moved, not copied, to the pool's thread (Piscina's
 * transferable: the worker gives up its ArrayBuffer). A view of a larger buffer (Node's pool of
 * small Buffers) is copied once first, since moving it would move its neighbours too.
 */
function moveBytes(result: RenderResult): WorkerReply {
  const { bytes } = result
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
  const own = whole ? new Uint8Array(bytes.buffer) : Uint8Array.prototype.slice.call(bytes)
  const reply: WorkerReply = { ok: true, result: { ...result, bytes: own } }
  return Piscina.move({ [Piscina.transferableSymbol]: own.buffer, [Piscina.valueSymbol]: reply } as never) as unknown as WorkerReply
}

/** Runs one task. */
export default async function run(task: WorkerTask): Promise<WorkerReply> {
  // A warm worker has pdfkit loaded too (render/pdf loads it lazily for in-process renderers).
  warmed ??= Promise.all([warmUp(context), loadPdfKit()]).catch(() => undefined)
  await warmed
  if (task.kind === 'warm') return { ok: true }
  if (!sources.restore(task.resolved, task.handles ?? [], task.texts)) return { ok: false, missing: true }
  try {
    return moveBytes(await renderResolved(task.resolved, task.output, context))
  } catch (error) {
    if (LithoError.isInstance(error)) return { ok: false, error: error.toJSON() }
    return { ok: false, error: { code: 'ERR_RENDER_FAILED', message: (error as Error)?.message ?? String(error) } }
  } finally {
    // Let resvg-js free its native buffers before the next task (thx/resvg-js#216).
    await new Promise((resolve) => setImmediate(resolve))
  }
}
