/**
 * The asset library over HTTP (docs/assets.md, bearer): upload an image, list, read its metadata
 * or bytes, delete it. The same core operations as the MCP tools `upload_asset` and `list_assets`
 * and the `litho assets` commands.
 *
 * @module routes/asset-routes
 */
import { AssetResourceSchema, DeleteAssetParamsSchema, DeletedAssetSchema, ListAssetsParamsSchema, MAX_ASSET_BYTES, MAX_ASSET_PIXELS, PaginatedAssetsSchema, deleteAsset, getAsset, invalidRequest, listAssets, parseDeleteAssetParams, parseListAssetsParams, readAssetContent, uploadAsset, type AssetServices } from '@litho/core'
import { FastResponse } from 'srvx'
import * as z from 'zod'
import { json } from '../app/errors.js'
import { readBoundedRequest } from '../app/read-json-body.js'
import { UNKNOWN_PLAN, bearerErrors, errorBody, jsonResponse } from '../openapi/responses.js'
import type { AppContext } from './app-context.js'
import { defineRoute } from './define-route.js'
import { hasVerifier } from './design-routes.js'

/** Mounted with a bearer verifier and an asset store. */
const hasAssets = (app: AppContext) => hasVerifier(app) && app.services.assets !== undefined

/** Room for the multipart framing around the file (boundaries, part headers, a name field). */
const MULTIPART_OVERHEAD = 64 * 1024

/** The `id` path parameter of the asset routes. */
const assetIdParams = z.object({ id: z.string().meta({ description: 'The asset id (`a_…`), as in its `ref` `asset:<id>`.' }) })

const EXAMPLE_ASSET = { id: 'a_3Jx9Qm2LpZ7aK4tW', name: 'logo.png', contentType: 'image/png', width: 512, height: 512, bytes: 48213, createdAt: '2026-11-23T10:00:00.000Z', ref: 'asset:a_3Jx9Qm2LpZ7aK4tW' }

/** The asset services of the app (the routes are mounted only when it has an asset store). */
function assetServices(app: AppContext): AssetServices {
  const { assets, files, meter, designs, plans, clock } = app.services
  return { assets: assets!, files, meter, designs, plans, clock }
}

/**
 * The uploaded bytes and name: the `file` field of a multipart/form-data body (parsed by the
 * Fetch API's `Request.formData()`), or the raw body. Read through the limit as it streams.
 */
async function readUpload(request: Request, query: URLSearchParams): Promise<{ bytes: Uint8Array; name: string | undefined }> {
  const type = request.headers.get('content-type')?.toLowerCase() ?? ''
  const multipart = type.startsWith('multipart/form-data')
  // A raw body is the file itself: its limit is exactly the asset limit, so 10 MB + 1 byte stops the read.
  const bounded = await readBoundedRequest(request, multipart ? MAX_ASSET_BYTES + MULTIPART_OVERHEAD : MAX_ASSET_BYTES)
  if (!multipart) {
    const bytes = new Uint8Array(await bounded.arrayBuffer())
    return { bytes, name: query.get('name') ?? undefined }
  }
  let form: FormData
  try {
    form = await bounded.formData()
  } catch (error) {
    throw invalidRequest([{ path: 'body', message: `expected multipart/form-data with a "file" field, received a body that does not parse (${(error as Error).message})` }])
  }
  const file = form.get('file')
  if (file === null || typeof file === 'string') throw invalidRequest([{ path: 'file', message: 'expected a file field named "file" in the multipart body' }])
  const name = form.get('name')
  return { bytes: new Uint8Array(await file.arrayBuffer()), name: typeof name === 'string' && name !== '' ? name : file.name }
}

/** `POST /assets`: upload an image (201). */
export const uploadAssetRoute = defineRoute({
  method: 'POST',
  path: '/assets',
  server: 'base',
  auth: { kind: 'bearer', scope: 'write' },
  cors: { kind: 'bearer' },
  when: hasAssets,
  operationId: 'uploadAsset',
  tags: ['assets'],
  summary: 'Upload an image to your asset library',
  description: `Stores a PNG, JPEG, WebP, GIF or SVG image of at most ${MAX_ASSET_BYTES} bytes (10 MB) and ${MAX_ASSET_PIXELS} pixels, sent as the raw body (any Content-Type; the type is read from the bytes, and \`?name=\` names it) or as the \`file\` field of multipart/form-data. SVGs with scripts, event handlers, external references or foreignObject are refused. Its bytes count against the plan's storage. Draw it in a design with \`"src": "asset:<id>"\` (the answer's \`ref\`). The MCP tool \`upload_asset\` does the same.`,
  query: [z.object({ name: z.string().optional().meta({ description: 'The file name, for a raw body (multipart bodies use the file part\'s name).' }) })],
  requestBody: {
    required: true,
    content: {
      'multipart/form-data': { schema: z.object({ file: z.string().meta({ format: 'binary', description: 'The image.' }), name: z.string().optional() }) },
      'application/octet-stream': { schema: z.string().meta({ format: 'binary', description: 'The image itself (image/png, image/jpeg, … work too).' }) },
    },
  },
  responses: {
    '201': jsonResponse('The stored asset.', AssetResourceSchema, undefined, EXAMPLE_ASSET),
    '400': errorBody('The multipart body has no `file` field, or does not parse.'),
    ...bearerErrors,
    '403': { ...bearerErrors['403'], description: `${bearerErrors['403'].description} Or: the plan's storage is full (\`ERR_STORAGE_QUOTA\`). Or: ${UNKNOWN_PLAN}` },
    '413': errorBody(`The image is larger than ${MAX_ASSET_BYTES} bytes (\`ERR_ASSET_TOO_LARGE\`), or an SVG larger than 1 MB.`),
    '422': errorBody('Not an accepted image (`ERR_ASSET_INVALID`; `message` says why: the format, more than the pixel limit, a corrupt file, an unsafe SVG).'),
  },
  async handler({ app, account, request, event }) {
    const { bytes, name } = await readUpload(request, event.url.searchParams)
    return json(await uploadAsset(assetServices(app), { account, name, bytes }), 201)
  },
})

/** `GET /assets`. */
export const listAssetsRoute = defineRoute({
  method: 'GET',
  path: '/assets',
  server: 'base',
  auth: { kind: 'bearer', scope: 'read' },
  cors: { kind: 'bearer' },
  when: hasAssets,
  operationId: 'listAssets',
  tags: ['assets'],
  summary: 'List your assets, newest first',
  description: 'Paginated like the design list (`$page`, `$limit`). The MCP tool `list_assets` does the same.',
  query: [ListAssetsParamsSchema],
  responses: {
    '200': jsonResponse('A page of assets.', PaginatedAssetsSchema),
    '400': errorBody('`$page` or `$limit` is not a whole number in range (or given twice); `message` names it.'),
    ...bearerErrors,
  },
  handler: ({ app, account, event }) => listAssets(assetServices(app), { account, ...parseListAssetsParams(event.url.searchParams) }),
})

/** `GET /assets/:id`. */
export const getAssetRoute = defineRoute({
  method: 'GET',
  path: '/assets/:id',
  server: 'base',
  auth: { kind: 'bearer', scope: 'read' },
  cors: { kind: 'bearer' },
  when: hasAssets,
  operationId: 'getAsset',
  tags: ['assets'],
  summary: "Get one of your assets' metadata",
  params: assetIdParams,
  responses: {
    '200': jsonResponse('The asset.', AssetResourceSchema, undefined, EXAMPLE_ASSET),
    ...bearerErrors,
    '404': errorBody("No asset of yours has this id (another account's asset is not found either)."),
  },
  handler: ({ app, account, param }) => getAsset(assetServices(app), { account, id: param('id') }),
})

/** `GET /assets/:id/content`: the bytes as uploaded. */
export const getAssetContentRoute = defineRoute({
  method: 'GET',
  path: '/assets/:id/content',
  server: 'base',
  auth: { kind: 'bearer', scope: 'read' },
  cors: { kind: 'bearer' },
  when: hasAssets,
  operationId: 'getAssetContent',
  tags: ['assets'],
  summary: 'Download one of your assets',
  params: assetIdParams,
  responses: {
    '200': { description: 'The image as uploaded, with its sniffed Content-Type.', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } },
    ...bearerErrors,
    '404': errorBody('No asset of yours has this id.'),
  },
  async handler({ app, account, param }) {
    const { asset, bytes } = await readAssetContent(assetServices(app), { account, id: param('id') })
    // An SVG opened from this URL must not run anything, whatever a future sanitiser misses.
    const headers = { 'content-type': asset.contentType, 'content-length': String(bytes.byteLength), 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox" }
    return new FastResponse(new Uint8Array(bytes), { status: 200, headers })
  },
})

/** `DELETE /assets/:id`. */
export const deleteAssetRoute = defineRoute({
  method: 'DELETE',
  path: '/assets/:id',
  server: 'base',
  auth: { kind: 'bearer', scope: 'write' },
  cors: { kind: 'bearer' },
  when: hasAssets,
  operationId: 'deleteAsset',
  tags: ['assets'],
  summary: 'Delete one of your assets',
  description: 'Deletes the asset and gives its bytes back to the plan\'s storage. Refused (409 `ERR_ASSET_IN_USE`, naming the designs) while a published design draws it, unless `?force=true`.',
  params: assetIdParams,
  query: [DeleteAssetParamsSchema],
  responses: {
    '200': jsonResponse('Deleted.', DeletedAssetSchema, undefined, { deleted: true, id: EXAMPLE_ASSET.id }),
    '400': errorBody('`force` is not true or false.'),
    ...bearerErrors,
    '404': errorBody('No asset of yours has this id (or it is already deleted).'),
    '409': errorBody('Published designs draw this asset (`ERR_ASSET_IN_USE`; `message` names them, `designs` lists their ids and names). Change them first, or delete with `force=true`.'),
  },
  handler: ({ app, account, param, event }) => deleteAsset(assetServices(app), { account, id: param('id'), ...parseDeleteAssetParams(event.url.searchParams) }),
})
