/**
 * The MCP tools of the asset library (docs/assets.md): `upload_asset` (base64 bytes, or an https
 * URL the server fetches once under the same network policy as rendering) and `list_assets`.
 *
 * @module mcp/asset-tools
 */
import { LithoError, MAX_ASSET_BYTES, fetchRemote, listAssets, uploadAsset, type AssetServices, type NetworkPolicy, type PlanId } from '@litho/core'
import { requireScopes, type CallToolResult, type McpServer } from '@modelcontextprotocol/server'
import * as z from 'zod'

/** What the asset tools need: the asset services, where URL uploads may be fetched from, and the user. */
export interface AssetToolContext {
  assets: AssetServices
  /** The network policy of URL uploads: the renderer's (`networkPolicyFromEnv()` by default). */
  network: NetworkPolicy
  account: { id: string; plan: PlanId }
}

/** Base64 of the largest asset: 4 characters per 3 bytes. */
const MAX_BASE64_LENGTH = Math.ceil(MAX_ASSET_BYTES / 3) * 4
// Strict base64 (padding optional): anything else is refused rather than decoded leniently, which would drop characters.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

const UploadAssetInputSchema = z.object({
  name: z.string().max(200).optional().describe('A file name to show in lists, e.g. "logo.png". Default: the URL\'s last segment, or "asset".'),
  base64: z.string().max(MAX_BASE64_LENGTH).optional().describe('The image bytes, base64-encoded (no data: prefix). Give this or `url`. MCP messages are limited in size by the server (2 MiB by default): for larger images use `url` or `POST /assets`.'),
  url: z.url({ protocol: /^https?$/ }).max(2048).optional().describe('An https URL the server fetches the image from, once. Give this or `base64`.'),
})

const ListAssetsInputSchema = z.object({
  page: z.number().int().min(1).default(1).describe('Page number, 1 or more. Default 1.'),
  limit: z.number().int().min(1).max(100).default(10).describe('Assets per page, 1 to 100. Default 10.'),
})

/**
 * Registers `upload_asset` and `list_assets` on `server`, with the shared result helpers of tools.ts.
 *
 * @example registerAssetTools(server, { assets, network, account }, { run, jsonResult })
 */
export function registerAssetTools(
  server: McpServer,
  context: AssetToolContext,
  helpers: { run: (fn: () => Promise<CallToolResult>) => Promise<CallToolResult>; jsonResult: (value: unknown) => CallToolResult },
): void {
  const { account } = context
  const { run, jsonResult } = helpers

  server.registerTool(
    'upload_asset',
    {
      title: 'Upload an image',
      description:
        `Stores a PNG, JPEG, WebP, GIF or SVG image (at most ${MAX_ASSET_BYTES} bytes and 40 million pixels; SVGs without scripts or external references) in your asset library and returns its metadata with \`ref\`, like \`asset:a_3Jx9Qm2LpZ7aK4tW\`. Use \`ref\` as an image component's \`src\` (or as a \`<key>.src\` override): the server draws it from its own storage, so it never changes and needs no public URL. Give \`base64\` (the bytes) or \`url\` (fetched once, https only). Its bytes count against the plan's storage.`,
      inputSchema: UploadAssetInputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      scopeChallenge: requireScopes('read', 'write'),
    },
    async (input) =>
      run(async () => {
        const { bytes, name } = await readInput(input, context.network)
        return jsonResult(await uploadAsset(context.assets, { account, name, bytes }))
      }),
  )

  server.registerTool(
    'list_assets',
    {
      title: 'List assets',
      description: 'Lists the images of your asset library, newest first: `docs` of `{ id, name, contentType, width, height, bytes, createdAt, ref }`, with `page`, `totalPages` and `hasNextPage`. Put a `ref` in an image `src` to draw it.',
      inputSchema: ListAssetsInputSchema,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ page, limit }) => run(async () => jsonResult(await listAssets(context.assets, { account, page, limit }))),
  )
}

/** The bytes of an upload: decoded from base64, or fetched from the URL (bounded by the asset limit, under the network policy). */
async function readInput(input: z.infer<typeof UploadAssetInputSchema>, network: NetworkPolicy): Promise<{ bytes: Uint8Array; name: string | undefined }> {
  if ((input.base64 === undefined) === (input.url === undefined)) {
    throw invalid(input.base64 === undefined ? '' : 'base64', 'give exactly one of "base64" (the bytes) or "url" (an https URL to fetch)')
  }
  if (input.base64 !== undefined) {
    const text = input.base64.replace(/\s/g, '')
    if (!BASE64.test(text) || text.length % 4 === 1) throw invalid('base64', 'expected base64 text (A-Z, a-z, 0-9, +, /, = padding), without a data: prefix')
    return { bytes: new Uint8Array(Buffer.from(text, 'base64')), name: input.name }
  }
  // The renderer's fetch: https only (unless the policy allows http), public addresses only,
  // checked again after DNS and on every redirect; the body is counted while it streams.
  const fetched = await fetchRemote(input.url!, { policy: network, limits: { maxBytes: MAX_ASSET_BYTES }, accept: 'image/png,image/jpeg,image/webp,image/gif,image/svg+xml;q=0.9' })
  return { bytes: new Uint8Array(fetched.bytes), name: input.name ?? nameOfUrl(input.url!) }
}

function nameOfUrl(url: string): string | undefined {
  const last = new URL(url).pathname.split('/').pop()
  if (last === undefined || last === '') return undefined
  try {
    return decodeURIComponent(last).slice(0, 200)
  } catch {
    return last.slice(0, 200)
  }
}

function invalid(path: string, message: string): LithoError {
  return new LithoError('ERR_INVALID_REQUEST', path ? `${path}: ${message}` : message, { issues: [{ path, message }] })
}
