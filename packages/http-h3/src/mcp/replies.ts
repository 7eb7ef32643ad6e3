/**
 * Lean MCP replies: the summary `create_design` and `update_design` answer with (the whole
 * document only with `verbose: true`, and never a `data:` URI in full), the design guide by
 * section with its schema and examples also as MCP resources, and the ready-made example
 * requests of `get_render_config`.
 *
 * @module mcp/replies
 */
import { GUIDE_SECTIONS, getGuideSection, type DesignResource, type DesignWriteSummary, type GuideSection, type RenderConfig } from '@litho/core'
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server'
import * as z from 'zod'

/** The `verbose` input of `create_design` and `update_design`. */
export const VerboseInputSchema = z
  .boolean()
  .default(false)
  .describe('false (default): reply with a summary (`_id`, `name`, `renderCode`, `state`, what changed, and each component\'s key, type and dynamic fields). true: also the whole stored design (`design`, `draft`, dates). Either way a `data:` URI is shown as a short marker with its kind and size, never in full; `get_design` returns the document as stored.')

const KB = 1024

/** A byte count for people: `412 B`, `315 KB`, `2.4 MB`. */
function size(bytes: number): string {
  if (bytes < KB) return `${bytes} B`
  if (bytes < KB * KB) return `${Math.round(bytes / KB)} KB`
  return `${(bytes / KB / KB).toFixed(1)} MB`
}

/** `data:image/png;base64,… (315 KB)`: the media type and the size of the decoded data. */
export function dataUriMarker(uri: string): string {
  const comma = uri.indexOf(',')
  const header = comma === -1 ? uri.slice(0, 64) : uri.slice(0, Math.min(comma, 128))
  const payload = comma === -1 ? 0 : uri.length - comma - 1
  const base64 = header.endsWith(';base64')
  const padding = base64 ? (uri.endsWith('==') ? 2 : uri.endsWith('=') ? 1 : 0) : 0
  const bytes = base64 ? Math.max(0, Math.floor((payload * 3) / 4) - padding) : payload
  return `${header},… (${size(bytes)})`
}

/** A deep copy of `value` with every string that is a `data:` URI replaced by its marker. */
export function elideDataUris<T>(value: T): T {
  const visit = (node: unknown, depth: number): unknown => {
    if (typeof node === 'string') return node.startsWith('data:') ? dataUriMarker(node) : node
    if (depth > 256 || node === null || typeof node !== 'object') return node
    if (Array.isArray(node)) return node.map((item) => visit(item, depth + 1))
    return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, visit(item, depth + 1)]))
  }
  return visit(value, 0) as T
}

/**
 * The reply to a design write: the summary, and with `verbose` the stored design too (dates,
 * `design`, `draft`), its `data:` URIs shortened. Text and structured content carry the same object.
 */
export function writeReply(summary: DesignWriteSummary, resource: DesignResource, verbose: boolean): CallToolResult {
  const stored = { createdAt: resource.createdAt, updatedAt: resource.updatedAt, design: resource.design, ...(resource.draft === undefined ? {} : { draft: resource.draft }) }
  const value = verbose ? { ...summary, ...elideDataUris(stored) } : summary
  // One line: the point of the summary is a short reply.
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value as unknown as Record<string, unknown> }
}

/** The URIs of the guide's MCP resources. */
export const GUIDE_RESOURCES = {
  schema: 'litho://design-guide/schema',
  examples: 'litho://design-guide/examples',
} as const

/** Registers `get_design_guide` (by section) and the schema and examples resources. */
export function registerDesignGuide(server: McpServer): void {
  server.registerTool(
    'get_design_guide',
    {
      title: 'Design guide',
      description:
        'Returns the guide to Litho design documents (version 2). By default (`section: "guide"`, about 13 KB) a concise guide: the document structure, every component type (text, image, shape, qrcode, barcode, group with auto-layout) with each field, its type, default and whether it can be overridden, patterns, how to render, and a worked example. `section: "schema"` returns the JSON Schema, `"examples"` long examples of every type and a complete document, `"full"` the complete reference with every field described, and a component type (`"text"`, `"image"`, …) that type\'s part of it (every field described, an example). Read the guide before creating or changing a design: it states what `create_design` and `update_design` accept.',
      inputSchema: z.object({
        section: z.enum(GUIDE_SECTIONS).default('guide').describe('Which part: "guide" (concise, default), "schema" (JSON Schema of a document), "examples" (long examples), "full" (complete reference), or a component type for its fields described in full with an example.'),
      }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ section }) => {
      const text = getGuideSection(section as GuideSection)
      return { content: [{ type: 'text', text: section === 'schema' ? `JSON Schema of a design document:\n${text}` : text }] }
    },
  )
  server.registerResource(
    'design-document-schema',
    GUIDE_RESOURCES.schema,
    { title: 'Design document JSON Schema', description: 'The JSON Schema (draft 2020-12) of a Litho design document (version 2), as `get_design_guide` with `section: "schema"`.', mimeType: 'application/schema+json' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/schema+json', text: getGuideSection('schema') }] }),
  )
  server.registerResource(
    'design-guide-examples',
    GUIDE_RESOURCES.examples,
    { title: 'Design guide examples', description: 'One example per component type and a complete product card with variations, as `get_design_guide` with `section: "examples"`.', mimeType: 'text/markdown' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: getGuideSection('examples') }] }),
  )
}

/** The override a ready-made example uses: a text field if there is one, else the first string that is not a `data:` URI. */
function sampleOverride(flatten: Record<string, unknown>): [string, string] | undefined {
  const entries = Object.entries(flatten).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !entry[1].startsWith('data:'))
  return entries.find(([key]) => key.endsWith('.text')) ?? entries[0]
}

/** Example requests of a render config, e.g. `{ get: { url, headers }, post: { url, headers, body }, renderKey }`. */
export interface RenderExamples {
  get: { method: 'GET'; url: string; headers: Record<string, string> }
  post: { method: 'POST'; url: string; headers: Record<string, string>; body: Record<string, unknown> }
  renderKey: string
}

/**
 * Ready-made requests for a render config: a GET URL with `format`, `variation` and one
 * override from `data.flatten`, and the same as a POST with a JSON body.
 */
export function renderExamples(config: RenderConfig): RenderExamples {
  const variation = config.variations.find((v) => v.id !== 'master')?.id ?? 'master'
  const override = sampleOverride(config.data.flatten)
  const query = new URLSearchParams({ format: 'png', variation })
  if (override) query.set(override[0], override[1])
  const key = { 'dma-api-key': '<render key>' }
  return {
    get: { method: 'GET', url: `${config.render}?${query.toString()}`, headers: key },
    post: {
      method: 'POST',
      url: `${config.render}?format=webp&quality=90`,
      headers: { ...key, 'content-type': 'application/json' },
      body: { variation, ...(override ? { [override[0]]: override[1] } : {}) },
    },
    renderKey:
      'A render key (`lk_…`) is not the MCP access token: the design\'s owner creates one on the console\'s API keys page, with `POST {base_url}/settings/api-keys` (a bearer token with the `write` scope; the key is shown once), or with `litho keys create --email <owner>` on the server. The design must be published (`publish_design`) before the render URL answers.',
  }
}
