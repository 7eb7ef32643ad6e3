/**
 * The MCP tools of Litho: reading designs and the design guide, and authoring (create, update
 * the draft, preview, publish, delete). Every input is a zod v4 schema whose descriptions are
 * written for an agent that has never seen Litho; every failure is a tool error that lists each
 * problem with its JSON path and what was expected, so the agent can fix its call.
 *
 * @module mcp/tools
 */
import {
  CreateDesignInputSchema,
  DeleteDesignInputSchema,
  LithoError,
  PreviewDesignInputSchema,
  PublishDesignInputSchema,
  UpdateDesignInputSchema,
  createDesign,
  deleteDesign,
  getDesign,
  getRenderConfig,
  listDesigns,
  previewDesign,
  publishDesign,
  summarizeDesignWrite,
  updateDesignWithPrevious,
  type Clock,
  type PlanId,
  type PlanTable,
  type Renderer,
  networkPolicyFromEnv,
  type AssetServices,
  type AssetSource,
  type NetworkPolicy,
} from '@litho/core'
import { registerAssetTools } from './asset-tools.js'
import type { DesignStore, Meter } from '@litho/core/contracts'
import { McpServer, requireScopes, type CallToolResult } from '@modelcontextprotocol/server'
import * as z from 'zod'
import { VerboseInputSchema, registerDesignGuide, renderExamples, writeReply } from './replies.js'

/** What the tools work on, for one signed-in user. */
export interface LithoToolContext {
  designs: DesignStore
  renderer: Pick<Renderer, 'render'>
  /** Counts each account's designs atomically (the plan's design limit). */
  meter: Meter
  clock: Clock
  /** `{render_url}`, for the render URLs of render configs. */
  renderUrl: string
  /** The user of the access token. */
  account: { id: string; plan: PlanId }
  /** The plan table `account.plan` is read from (the design limit). @default PLANS */
  plans?: PlanTable
  /** The asset library: with it, `upload_asset` and `list_assets` are listed (mcp/asset-tools). */
  assets?: AssetServices
  /** Where `upload_asset` may fetch a URL from. @default networkPolicyFromEnv() */
  network?: NetworkPolicy
  /** Loads the `asset:` images a preview draws (core's createAssetSource); without it they fail as not found. */
  assetSource?: AssetSource
}

/** Every tool, with the scope it needs. */
export const LITHO_TOOLS = {
  get_design: 'read',
  get_design_guide: 'read',
  list_designs: 'read',
  get_render_config: 'read',
  render_preview: 'read',
  create_design: 'write',
  update_design: 'write',
  publish_design: 'write',
  delete_design: 'write',
  upload_asset: 'write',
  list_assets: 'read',
} as const

const DesignIdSchema = z.object({
  id: z.string().describe('The design\'s `_id` (like `d_3Jx9Qm2LpZ7a`), as returned by `list_designs` or `create_design`. Not the render code.'),
})

const ListDesignsInputSchema = z.object({
  page: z.number().int().min(1).default(1).describe('Page number, 1 or more. Default 1.'),
  limit: z.number().int().min(1).max(100).default(10).describe('Designs per page, 1 to 100. Default 10.'),
})

/** Successful results: the JSON as text (every client shows it) and as structured content. */
function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value as Record<string, unknown> }
}

/**
 * A failure the agent can act on: the message, then one line per problem with its JSON path,
 * each problem once (a message that already lists them keeps only its other lines).
 * Errors that are not Litho's own (a bug, storage down) say only that the call failed.
 */
export function toolError(error: unknown): CallToolResult {
  if (!LithoError.isInstance(error)) return { isError: true, content: [{ type: 'text', text: 'The call failed on the server (an internal error). Try again; if it keeps failing, report it.' }] }
  const listed = new Set(error.issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)))
  const headline = error.message.split('\n').filter((line) => !listed.has(line)).join('\n')
  const lines = [`${error.code}: ${headline}`]
  if (error.issues.length > 0) {
    lines.push('', 'Fix each of these and call again:')
    for (const issue of error.issues) lines.push(`- ${issue.path || '(root)'}: ${issue.message}`)
  }
  // The list of valid values, unless an issue line already names them.
  const available = (error.details as { available?: unknown }).available
  if (Array.isArray(available) && error.issues.length === 0) lines.push('', `Available: ${available.join(', ')}`)
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { code: error.code, message: error.message, issues: error.issues } }
}

const run = async (fn: () => Promise<CallToolResult>, report: (error: unknown) => void): Promise<CallToolResult> => {
  try {
    return await fn()
  } catch (error) {
    if (!LithoError.isInstance(error)) report(error)
    return toolError(error)
  }
}

/**
 * A fresh MCP server with Litho's tools for one request (the endpoint is stateless: no state
 * is kept between requests; every tool takes what it needs as arguments).
 */
export function createLithoMcpServer(context: LithoToolContext, report: (error: unknown) => void = () => {}): McpServer {
  const server = new McpServer(
    { name: 'litho', title: 'Litho design renderer', version: '1.0.0' },
    {
      instructions: [
        'Litho renders stored designs (templates with overridable dynamic fields) to PNG, JPEG, WebP and PDF.',
        'To build a design: read `get_design_guide` first (a concise guide to every component type and field; `section` gives the JSON Schema or long examples), then `create_design` (stored as an unpublished draft), look at it with `render_preview`, fix it with `update_design`, and `publish_design` when it is right.',
        'Published designs are rendered by the render endpoint with a render key: the URL is `render` of `get_render_config`, and the overridable fields are the keys of its `data.flatten` (pass them as query parameters, e.g. `title.text=Hello`).',
        'Images: `upload_asset` stores an image and returns `ref` (`asset:<id>`), which an image `src` can name; `list_assets` lists them.',
        'Reading tools need the `read` scope; creating, changing and deleting need `write`.',
      ].join('\n'),
    },
  )
  const services = { designs: context.designs, renderer: context.renderer, meter: context.meter, clock: context.clock, ...(context.plans ? { plans: context.plans } : {}), ...(context.assetSource ? { assetSource: context.assetSource } : {}) }
  const { account } = context
  const write = requireScopes('read', 'write')

  registerDesignGuide(server)

  server.registerTool(
    'list_designs',
    {
      title: 'List designs',
      description: 'Lists your designs, most recently updated first: `docs` of `{ _id, name, updatedAt }`, with `page`, `totalPages` and `hasNextPage`. Use an `_id` with `get_design`, `get_render_config`, `update_design` or `render_preview`.',
      inputSchema: ListDesignsInputSchema,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ page, limit }) => run(async () => jsonResult(await listDesigns(services, { account, page, limit })), report),
  )

  server.registerTool(
    'get_design',
    {
      title: 'Get a design',
      description:
        'Returns one of your designs: `{ _id, name, renderCode, createdAt, updatedAt, design, draft }`. `design` is the published document (what the render endpoint renders; null until first published) and `draft` the unpublished working copy, present when there is one. Same shape as `GET /designs/v2/{id}`.',
      inputSchema: DesignIdSchema,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ id }) => run(async () => jsonResult(await getDesign(services, { account, id })), report),
  )

  server.registerTool(
    'get_render_config',
    {
      title: 'Get the render configuration',
      description:
        'How to render a design: `render` is the render URL (`{render_url}/v1/<renderCode>`; call it with a render key in the `dma-api-key` header or query parameter), `data.flatten` lists every overridable field as a dot-path key with its current value (`title.text`, `photo.src`…; pass them as query parameters or a JSON body to change them per render), `data.pure` is the same nested, and `variations` lists the sizes (`master` is the base size; pass another id as `variation`). `examples` gives ready requests: `get` (a URL with `format`, `variation` and one override), `post` (the same with a JSON body) and `renderKey` (where a render key comes from).',
      inputSchema: DesignIdSchema,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ id }) =>
      run(async () => {
        const config = await getRenderConfig(services, { account, id, renderUrl: context.renderUrl })
        return jsonResult({ ...config, examples: renderExamples(config) })
      }, report),
  )

  server.registerTool(
    'render_preview',
    {
      title: 'Preview a design',
      description:
        'Renders one of your designs to a PNG and returns it as an image (long side at most 1024 px), followed by any warnings: overrides that were ignored and why, text that had to shrink or was cut, characters no font could draw, fonts or images that failed. By default it renders the draft when there is one, else the published design. Use it after `create_design` or `update_design` to check your work. Previews by the owner are not metered: they do not count against the render quota.',
      inputSchema: PreviewDesignInputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (input) =>
      run(async () => {
        const preview = await previewDesign(services, { account, ...input })
        const warnings = preview.warnings.map((w) => `- ${w.code}${w.key ? ` (${w.key})` : ''}: ${w.message}`)
        const summary = `${preview.summary}${warnings.length ? `\nWarnings:\n${warnings.join('\n')}` : '\nNo warnings.'}`
        return {
          content: [
            { type: 'image', data: Buffer.from(preview.bytes).toString('base64'), mimeType: 'image/png' },
            { type: 'text', text: summary },
          ],
          structuredContent: { source: preview.source, variation: preview.variation, width: preview.width, height: preview.height, warnings: preview.warnings },
        }
      }, report),
  )

  server.registerTool(
    'create_design',
    {
      title: 'Create a design',
      description:
        'Creates a new design from a name and a complete design document (see `get_design_guide` for its format). It is stored as an unpublished draft (unless `publish` is true). The reply is a summary: `_id`, `renderCode`, `state` (`draft` or `published`), `changes: "created"` and each component\'s key, type and dynamic fields; pass `verbose: true` to get the stored design too (`data:` URIs are always shortened to a marker with their size). If the document is invalid nothing is stored and the error lists every problem with its JSON path. Next: `render_preview` to look at it, `update_design` to fix it, `publish_design` to make it renderable.',
      inputSchema: CreateDesignInputSchema.extend({ verbose: VerboseInputSchema }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      scopeChallenge: write,
    },
    async ({ verbose, ...input }) =>
      run(async () => {
        const design = await createDesign(services, { account, ...input })
        return writeReply(summarizeDesignWrite(design), design, verbose)
      }, report),
  )

  server.registerTool(
    'update_design',
    {
      title: 'Update a design\'s draft',
      description:
        'Changes the draft of one of your designs (the published version stays as it is until `publish_design`). Give either `document` to replace the whole draft, or `patch` to change parts of it (fields of components found by their `key`, components to add or remove, top-level fields), and/or a new `name`. The result is validated; if it is invalid nothing changes and the error lists every problem with its JSON path. The reply is a summary: `_id`, `renderCode`, `state`, `changes` (components added, removed and changed with the changed field names, top-level fields changed, the new `name`) and each component\'s key, type and dynamic fields; pass `verbose: true` to get the stored design too (`data:` URIs shortened to a marker with their size; `get_design` returns it in full).',
      inputSchema: UpdateDesignInputSchema.extend({ verbose: VerboseInputSchema }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      scopeChallenge: write,
    },
    async ({ verbose, ...input }) =>
      run(async () => {
        const { design, previous } = await updateDesignWithPrevious(services, { account, ...input })
        return writeReply(summarizeDesignWrite(design, previous), design, verbose)
      }, report),
  )

  server.registerTool(
    'publish_design',
    {
      title: 'Publish a design',
      description: 'Publishes the draft of one of your designs: it becomes what the render URL renders, and the draft is cleared. Publishing a design without a draft changes nothing.',
      inputSchema: PublishDesignInputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      scopeChallenge: write,
    },
    async (input) => run(async () => jsonResult(await publishDesign(services, { account, ...input })), report),
  )

  server.registerTool(
    'delete_design',
    {
      title: 'Delete a design',
      description: 'Deletes one of your designs, published version and draft. Its render URL stops working. This cannot be undone.',
      inputSchema: DeleteDesignInputSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      scopeChallenge: write,
    },
    async (input) => run(async () => jsonResult(await deleteDesign(services, { account, ...input })), report),
  )

  if (context.assets) registerAssetTools(server, { assets: context.assets, network: context.network ?? networkPolicyFromEnv(), account }, { run: (fn) => run(fn, report), jsonResult })
  return server
}
