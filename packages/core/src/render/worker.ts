/**
 * The render worker thread: one render context per thread (its own image and font
 * caches), warmed at start by rendering a small design so the first real render does
 * not pay for satori's WASM, font parsing and resvg's first decode (~380 ms).
 *
 * @module render/worker
 */
import { workerData } from 'node:worker_threads'
import sharp from 'sharp'
import { LithoError, type LithoErrorCode, type LithoIssue } from '../errors.js'
import { renderDocument, type RenderOptions, type RenderResult } from './render-document.js'
import { createRenderContext, type RendererOptions } from './renderer.js'

/** Data every worker starts with. */
export interface WorkerData {
  renderer: RendererOptions
}

/** A task sent to a worker. */
export type WorkerTask = { kind: 'warm' } | { kind: 'render'; document: unknown; options: RenderOptions }

/** A worker's answer: errors travel as plain data because classes do not survive structured clone. */
export interface WorkerReply {
  ok: boolean
  result?: RenderResult
  error?: { code: LithoErrorCode; message: string; issues?: LithoIssue[]; details?: Record<string, unknown> }
}

// libvips' operation cache (process-wide, 50 MB by default) never hits for renders:
// every render encodes new pixels. Off, it saves its memory in every render process.
sharp.cache(false)

const context = createRenderContext((workerData as WorkerData | undefined)?.renderer ?? {})

const WARM_UP = {
  version: 2,
  width: 64,
  height: 64,
  background: '#ffffff',
  components: [
    { type: 'text', key: 'r', width: 64, height: 32, text: 'Aa', fontWeight: 400 },
    { type: 'text', key: 'b', y: 32, width: 64, height: 32, text: 'Aa', fontWeight: 700 },
  ],
}

let warmed: Promise<unknown> | undefined

/** Runs one task. */
export default async function run(task: WorkerTask): Promise<WorkerReply> {
  warmed ??= renderDocument(WARM_UP, { format: 'png' }, context).catch(() => undefined)
  await warmed
  if (task.kind === 'warm') return { ok: true }
  try {
    const result = await renderDocument(task.document, task.options, context)
    return { ok: true, result }
  } catch (error) {
    if (LithoError.isInstance(error)) return { ok: false, error: error.toJSON() }
    return { ok: false, error: { code: 'ERR_RENDER_FAILED', message: (error as Error)?.message ?? String(error) } }
  } finally {
    // Let resvg-js free its native buffers before the next task (render-stack.md §6).
    await new Promise((resolve) => setImmediate(resolve))
  }
}
