// The app as a whole: the render pool behind it (busy → 503, responsive while rendering),
// mounting into another h3 app, the OpenAPI document, and its options.
import { createRenderPool, type RenderPool } from '@litho/core'
import { worstCase } from '@litho/testing'
import { H3 } from 'h3'
import { memoryAssetStore } from '@litho/storage-adapters/asset-store'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, expectError, RENDER_URL, type Harness } from './_harness.js'

/** Signed render links on, so their settings route is mounted (and documented) too. */
const LINK_MASTER_KEY = 'app-test-link-master-key-0123456789abcdefghij'
import { createLithoApp } from '../src/app/create-litho-app.js'

describe('on the render pool', () => {
  let pool: RenderPool
  let h: Harness
  beforeAll(async () => {
    // One worker and a queue of one: at most two renders in the pool at a time.
    pool = createRenderPool({ threads: 1, maxQueue: 1 })
    await pool.ready()
    h = await createHarness({ renderer: pool })
  })
  afterAll(() => h.close())

  it('beyond what the pool can queue: 503 with Retry-After, and the refused renders are refunded', async () => {
    const user = await h.createUser('pro')
    const key = await h.createKey(user)
    const code = await h.createDesign(user, await worstCase())
    const responses = await Promise.all(Array.from({ length: 6 }, () => h.fetch(`/v1/${code}?format=png`, { headers: { 'dma-api-key': key } })))
    const statuses = responses.map((r) => r.status).sort()
    const busy = responses.filter((r) => r.status === 503)
    expect(busy.length).toBeGreaterThanOrEqual(1)
    expect(statuses.filter((s) => s !== 503).every((s) => s === 200)).toBe(true)
    for (const response of busy) {
      expect(response.headers.get('retry-after')).toBe('2')
      expect(await response.json()).toMatchObject({ success: false, code: 'ERR_RENDER_BUSY', message: expect.stringMatching(/render queue is full/) })
    }
    expect(await h.meter.usage({ subject: user.id, window: '2026-11' })).toBe(6 - busy.length)
  })

  it('answers other requests while a large render runs', async () => {
    const user = await h.createUser('pro')
    const key = await h.createKey(user)
    const code = await h.createDesign(user, await worstCase())
    const order: string[] = []
    const render = h.fetch(`/v1/${code}?format=png`, { headers: { 'dma-api-key': key } }).then((r) => (order.push('render'), r))
    const spec = h.fetch('/openapi.json').then((r) => (order.push('openapi'), r))
    const [rendered, document] = await Promise.all([render, spec])
    expect(rendered.status).toBe(200)
    expect(document.status).toBe(200)
    expect(order).toEqual(['openapi', 'render'])
  })
})

describe('mounting and options', () => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness()
  })
  afterAll(() => h.close())

  it('mounts under a base path in another h3 app, next to its own routes', async () => {
    const user = await h.createUser()
    const key = await h.createKey(user)
    const code = await h.createDesign(user)
    const parent = new H3()
    parent.get('/', () => 'parent home')
    parent.mount('/litho', h.app)
    expect(await (await parent.request('/')).text()).toBe('parent home')
    const response = await parent.request(`/litho/v1/${code}?format=png`, { headers: { 'dma-api-key': key } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect((await parent.request('/litho/openapi.json')).status).toBe(200)
  })

  it('a path with malformed percent-encoding (/v1/%ZZ, /designs/v2/%E0%A4%A/config) gets a 400 JSON error naming the path, not h3\'s bare "Bad Request"', async () => {
    const user = await h.createUser()
    const key = await h.createKey(user)
    for (const path of ['/v1/%ZZ', '/v1/%E0%A4%A?format=png', '/designs/v2/%E0%A4%A/config']) {
      const body = await expectError(await h.fetch(path, { headers: { 'dma-api-key': key } }), 400, /^path: expected a path with valid percent-encoding .*received "\/(v1|designs)/)
      expect(body).toMatchObject({ code: 'ERR_INVALID_REQUEST', issues: [{ path: 'path' }] })
    }
    // Mounted in another app, which sees the path first, the answer is the parent's to give.
    const parent = new H3()
    parent.mount('/litho', h.app)
    expect((await parent.request('/litho/v1/%ZZ')).status).toBe(400)
  })

  it('refuses an app-served file store without a signer, and a renderUrl that is not a URL', () => {
    expect(() => createLithoApp({ designs: h.designs, accounts: h.accounts, files: h.files, meter: h.meter, renderer: { render: async () => { throw new Error('unused') } }, renderUrl: RENDER_URL })).toThrow(
      /Expected option signer/,
    )
    expect(() => createLithoApp({ designs: h.designs, accounts: h.accounts, files: h.files, meter: h.meter, signer: h.signer, renderer: { render: async () => { throw new Error('unused') } }, renderUrl: 'render.example.com' })).toThrow(
      /Expected option renderUrl to be an absolute http\(s\) URL/,
    )
  })

  it('an unexpected error is a 500 without details, reported to onError', async () => {
    const reported: unknown[] = []
    const app = createLithoApp({
      designs: h.designs,
      accounts: h.accounts,
      files: h.files,
      meter: h.meter,
      signer: h.signer,
      renderer: { render: async () => { throw new Error('secret internals') } },
      renderUrl: RENDER_URL,
      onError: (error) => reported.push(error),
    })
    const user = await h.createUser()
    const key = await h.createKey(user)
    const code = await h.createDesign(user)
    const response = await app.request(`/v1/${code}`, { headers: { 'dma-api-key': key } })
    expect(response.status).toBe(500)
    const body = (await response.json()) as Record<string, unknown>
    expect(body).toEqual({ success: false, message: 'internal error', code: 'ERR_INTERNAL', requestId: response.headers.get('x-request-id') })
    expect(reported).toHaveLength(1)
    // And the failed render was refunded.
    expect(await h.meter.usage({ subject: user.id, window: '2026-11' })).toBe(0)
  })
})

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document generated from the request schemas', async () => {
    const h = await createHarness()
    const doc = (await (await h.fetch('/openapi.json')).json()) as any
    await h.close()
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.servers).toEqual([{ url: RENDER_URL, description: '{render_url}' }])
    // Every route of the table is documented, mounted or not (see 'documents exactly what is mounted' below).
    const everything = await createHarness({ withOAuth: {}, withJobs: {}, renderLinks: { masterKey: LINK_MASTER_KEY }, assets: memoryAssetStore() })
    const full = (await (await everything.fetch('/openapi.json')).json()) as any
    await everything.close()
    expect(doc).toEqual(full)
    const get = doc.paths['/v1/{design_id}'].get
    const byName = Object.fromEntries(get.parameters.map((p: any) => [p.name, p]))
    expect(byName.quality.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 80 })
    expect(byName.expiresIn.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 10080, default: 60 })
    expect(byName.format.schema).toMatchObject({ enum: ['png', 'jpeg', 'webp', 'pdf'], default: 'jpeg' })
    expect(byName.delivery.schema).toMatchObject({ enum: ['stream', 'hosted', 'signed'], default: 'stream' })
    // `{}`: a signed render link needs no key (docs/signed-render-links.md).
    expect(get.security).toEqual([{ renderKeyHeader: [] }, { renderKeyQuery: [] }, { renderKeyQueryKey: [] }, { renderKeyQueryApiKey: [] }, {}])
    expect(byName.sig.schema).toMatchObject({ pattern: '^[A-Za-z0-9_-]{43}$' })
    expect(doc.paths['/v1/{design_id}'].post.security).toEqual([{ renderKeyHeader: [] }])
    expect(doc.paths['/bulk'].post.security).toEqual([{ renderKeyHeader: [] }, { renderKeyQuery: [] }])
    expect(Object.keys(get.responses).sort()).toEqual(['200', '304', '400', '401', '403', '404', '413', '422', '429', '503'])
    const bulk = doc.components.schemas.BulkRequest
    expect(bulk.required).toEqual(['items'])
    expect(bulk.properties.items).toMatchObject({ minItems: 1, maxItems: 25 })
    expect(bulk.properties.items.items.required).toEqual(['designId'])
    expect(bulk.properties.delivery).toMatchObject({ enum: ['hosted', 'signed'], default: 'hosted' })
    // Every $ref points at a schema that exists.
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[A-Za-z]+"/g) ?? []
    for (const ref of refs) expect(doc.components.schemas).toHaveProperty(ref.slice(22, -1))
    // And every $ref is a component: a schema's own `$defs` (zod's, for a schema with an id that is no component) resolve against the document root in OpenAPI 3.1, where they are not.
    expect(JSON.stringify(doc).match(/"\$ref":"(?!#\/components\/schemas\/)[^"]{0,200}"/g)).toBeNull()
  })

  it('describes the bearer endpoints on {base_url}, with the oauth2 scheme, the core schemas and their errors', async () => {
    const h = await createHarness({ baseUrl: 'https://api.example.test', authUrl: 'https://auth.example.test' })
    const doc = (await (await h.fetch('/openapi.json')).json()) as any
    await h.close()
    expect(doc.components.securitySchemes.oauth2).toEqual({
      type: 'oauth2',
      description: expect.stringContaining('PKCE'),
      flows: {
        authorizationCode: {
          authorizationUrl: 'https://auth.example.test/api/v1/auth/oauth2/authorize',
          tokenUrl: 'https://auth.example.test/api/v1/auth/oauth2/token',
          refreshUrl: 'https://auth.example.test/api/v1/auth/oauth2/token',
          scopes: { read: expect.any(String), write: expect.any(String) },
        },
      },
    })
    const bearer: Array<[string, string, string, string[], string]> = [
      ['/designs/v2', 'get', 'read', ['200', '400', '401', '403'], 'PaginatedDesigns'],
      ['/designs/v2/{id}', 'get', 'read', ['200', '401', '403', '404'], 'Design'],
      ['/designs/v2/{id}/config', 'get', 'read', ['200', '400', '401', '403', '404'], 'RenderConfig'],
      ['/designs/v2', 'post', 'write', ['201', '400', '401', '403', '413'], 'Design'],
      ['/designs/v2/{id}', 'patch', 'write', ['200', '400', '401', '403', '404', '413'], 'Design'],
      ['/designs/v2/{id}/publish', 'post', 'write', ['200', '400', '401', '403', '404'], 'Design'],
      ['/designs/v2/{id}', 'delete', 'write', ['200', '401', '403', '404'], 'DeletedDesign'],
      ['/designs/v2/{id}/preview', 'post', 'read', ['200', '400', '401', '403', '404', '413', '422', '503'], 'DesignPreview'],
      ['/designs/v2/{id}/export/driver-upload', 'post', 'write', ['200', '400', '401', '403', '404', '413', '422', '429', '500', '503'], 'ExportUploadResult'],
      ['/designs/v2/{id}/export/signed-url', 'post', 'write', ['200', '400', '401', '403', '404', '413', '422', '429', '500', '503'], 'ExportSignedResult'],
      ['/designs/v2/{id}/export/jobs', 'post', 'write', ['202', '400', '401', '403', '404', '413', '429', '503'], 'ExportJobAck'],
      ['/analytics/api', 'get', 'read', ['200', '400', '401', '403'], 'UsageResponse'],
      ['/analytics/exports/{exportId}', 'get', 'read', ['200', '401', '403', '404'], 'ExportJob'],
      ['/analytics/exports', 'get', 'read', ['200', '400', '401', '403'], 'PaginatedExportJobs'],
      ['/settings/webhook-deliveries', 'get', 'read', ['200', '400', '401', '403'], 'PaginatedWebhookDeliveries'],
      ['/settings/api-keys', 'get', 'read', ['200', '400', '401', '403'], 'ApiKeyList'],
      ['/settings/api-keys', 'post', 'write', ['201', '400', '401', '403', '413'], 'CreatedApiKey'],
      ['/settings/api-keys/{id}', 'delete', 'write', ['200', '401', '403', '404'], 'DeletedApiKey'],
      // The webhook secret needs `write` even to read it: whoever holds it can forge webhooks.
      ['/settings/webhook-secret', 'get', 'write', ['200', '401', '403'], 'WebhookSecret'],
      ['/settings/webhook-secret/rotate', 'post', 'write', ['200', '401', '403'], 'WebhookSecret'],
    ]
    for (const [path, method, scope, statuses, schema] of bearer) {
      const item = doc.paths[path]
      expect(item.servers, path).toEqual([{ url: 'https://api.example.test', description: '{base_url}' }])
      const op = item[method]
      expect(op.security, `${method} ${path}`).toEqual([{ oauth2: [scope] }])
      expect(Object.keys(op.responses).sort(), `${method} ${path}`).toEqual(statuses)
      const success = op.responses[statuses[0]!]
      expect(success.content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${schema}` })
      expect(op.responses['401'].headers).toHaveProperty('WWW-Authenticate')
      expect(op.responses['403'].headers).toHaveProperty('WWW-Authenticate')
    }
    // Parameters come from the core param schemas.
    const params = (path: string, method = 'get') => Object.fromEntries(doc.paths[path][method].parameters.map((p: any) => [p.name, p]))
    expect(params('/designs/v2').$page).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } })
    expect(params('/designs/v2').$limit).toMatchObject({ in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } })
    for (const path of ['/analytics/exports', '/settings/webhook-deliveries']) expect(params(path).$limit).toMatchObject({ in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } })
    expect(doc.components.schemas.PaginatedExportJobs.properties.docs.items).toEqual({ $ref: '#/components/schemas/ExportJob' })
    expect(doc.components.schemas.PaginatedWebhookDeliveries.properties.docs.items).toEqual({ $ref: '#/components/schemas/WebhookDelivery' })
    expect(params('/settings/api-keys').$limit).toMatchObject({ schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } })
    expect(params('/analytics/api')).toMatchObject({
      start: { schema: { type: 'string', format: 'date-time' } },
      end: { schema: { type: 'string', format: 'date-time' } },
      groupBy: { schema: { enum: ['hour', 'day', 'week', 'month', 'year'], default: 'day' } },
    })
    expect(params('/designs/v2/{id}').id).toMatchObject({ in: 'path', required: true })
    // The exports: png by default, draft a boolean, expiresIn only where the URL is signed.
    expect(params('/designs/v2/{id}/export', 'post')).toMatchObject({ id: { in: 'path' }, format: { schema: { enum: ['png', 'jpeg', 'webp', 'pdf'], default: 'png' } }, draft: { schema: { type: 'boolean' } }, quality: { schema: { minimum: 1, maximum: 100 } } })
    expect(params('/designs/v2/{id}/export', 'post')).not.toHaveProperty('expiresIn')
    expect(params('/designs/v2/{id}/export/driver-upload', 'post')).not.toHaveProperty('expiresIn')
    expect(params('/designs/v2/{id}/export/signed-url', 'post').expiresIn).toMatchObject({ schema: { minimum: 1, maximum: 10080, default: 60 } })
    expect(doc.paths['/designs/v2/{id}/export'].post).toMatchObject({ security: [{ oauth2: ['write'] }], requestBody: { required: false } })
    expect(Object.keys(doc.paths['/designs/v2/{id}/export'].post.responses['200'].content)).toEqual(['image/png', 'image/jpeg', 'image/webp', 'application/pdf'])
    // Export jobs: delivery (hosted or signed, required in the query or the body), expiresIn, webhookUrl; 202 with Location.
    const job = params('/designs/v2/{id}/export/jobs', 'post')
    expect(job).toMatchObject({ id: { in: 'path' }, delivery: { in: 'query', schema: { enum: ['hosted', 'signed'] } }, format: { schema: { default: 'png' } }, draft: { schema: { type: 'boolean' } }, expiresIn: { schema: { minimum: 1, maximum: 10080, default: 60 } }, webhookUrl: { schema: { type: 'string', maxLength: 2048 } } })
    expect(job.delivery.description).toMatch(/[Rr]equired/)
    expect(doc.paths['/designs/v2/{id}/export/jobs'].post.requestBody.content['application/json'].schema.properties).toMatchObject({ delivery: { enum: ['hosted', 'signed'] }, webhookUrl: { type: 'string' } })
    expect(doc.paths['/designs/v2/{id}/export/jobs'].post.responses['202'].headers).toHaveProperty('Location')
    expect(params('/analytics/exports/{exportId}').exportId).toMatchObject({ in: 'path', required: true })
    expect(doc.paths['/analytics/exports/{exportId}'].get.tags).toEqual(['exports'])
    // The authoring bodies: named components, with an example a client can send.
    expect(doc.paths['/designs/v2'].post.requestBody.content['application/json']).toMatchObject({ schema: { $ref: '#/components/schemas/CreateDesignRequest' }, example: { name: expect.any(String), document: { version: 2 } } })
    expect(doc.paths['/designs/v2/{id}'].patch.requestBody.content['application/json']).toMatchObject({ schema: { $ref: '#/components/schemas/UpdateDesignRequest' }, example: { patch: expect.any(Object) } })
    expect(doc.components.schemas.CreateDesignRequest.required).toEqual(['name', 'document'])
    // The console's endpoints carry an example answer.
    for (const [path, method, status] of [['/designs/v2', 'post', '201'], ['/designs/v2/{id}', 'patch', '200'], ['/designs/v2/{id}', 'delete', '200'], ['/designs/v2/{id}/preview', 'post', '200'], ['/analytics/exports', 'get', '200'], ['/settings/webhook-deliveries', 'get', '200']] as const)
      expect(doc.paths[path][method].responses[status].content['application/json'].example, `${method} ${path}`).toEqual(expect.any(Object))
    expect(doc.paths['/designs/v2/{id}/preview'].post.responses['200'].content['application/json'].example.layout.components[2]).toMatchObject({ parent: 'price-tag' })
    expect(doc.components.schemas.PreviewDesignRequest.properties.maxSide).toMatchObject({ type: 'integer', minimum: 16, maximum: 4096, default: 1024 })
    expect(doc.components.schemas.DesignPreview.properties.layout.properties.components.items).toEqual({ $ref: '#/components/schemas/ComponentBox' })
    expect(Object.keys(doc.components.schemas.UpdateDesignRequest.properties)).toEqual(['name', 'document', 'patch', 'publish'])
    expect(doc.paths['/settings/api-keys'].post.requestBody).toEqual({ required: false, content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateApiKeyRequest' } } } })
    // Response bodies come from the core response schemas.
    const schemas = doc.components.schemas
    expect(schemas.PaginatedDesigns.required).toEqual(['docs', 'page', 'totalPages', 'hasNextPage', 'totalDocs', 'limit'])
    expect(schemas.PaginatedDesigns.properties.docs.items).toEqual({ $ref: '#/components/schemas/DesignSummary' })
    expect(schemas.DesignSummary.required).toEqual(['_id', 'name', 'updatedAt'])
    expect(schemas.Design.required).toEqual(['_id', 'name', 'renderCode', 'createdAt', 'updatedAt', 'design'])
    expect(schemas.RenderConfig.properties.data.required).toEqual(['pure', 'flatten'])
    expect(schemas.UsageResponse.properties.buckets.items).toEqual({ $ref: '#/components/schemas/UsageBucket' })
    expect(schemas.ApiKey.required).toEqual(['_id', 'name', 'active', 'prefix', 'createdAt', 'lastUsedAt'])
    expect(schemas.ApiKey.properties).not.toHaveProperty('hash')
    expect(schemas.CreatedApiKey.required).toContain('key')
    expect(schemas.CreateApiKeyRequest.properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 100, default: 'API key' })
    expect(schemas.ExportJobAck).toMatchObject({ required: ['success', 'exportId', 'status', 'pollUrl'], properties: { status: { const: 'queued' } } })
    expect(schemas.ExportJob.required).toEqual(['success', 'exportId', 'status', 'designId', 'delivery', 'format', 'createdAt', 'updatedAt', 'attempts'])
    expect(Object.keys(schemas.ExportJob.properties)).toEqual(['success', 'exportId', 'status', 'designId', 'delivery', 'format', 'createdAt', 'updatedAt', 'startedAt', 'finishedAt', 'attempts', 'url', 'expiresAt', 'file', 'error', 'webhook'])
    expect(schemas.ExportJob.properties.status.enum).toEqual(['queued', 'processing', 'succeeded', 'failed'])
    expect(schemas.ExportJob.properties.webhook.properties.state.enum).toEqual(['pending', 'delivered', 'failed'])
    expect(schemas.WebhookSecret.required).toEqual(['success', 'secret'])
    // No safe-integer noise.
    expect(JSON.stringify(doc)).not.toContain(String(Number.MAX_SAFE_INTEGER))
    // The discovery documents and the authorization server, without authentication.
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api/mcp']) {
      expect(doc.paths[path].servers[0].url).toBe('https://api.example.test')
      expect(doc.paths[path].get).toMatchObject({ security: [], tags: ['oauth'] })
      expect(doc.paths[path].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ProtectedResourceMetadata' })
    }
    for (const path of ['/.well-known/oauth-authorization-server/org/{org}', '/org/{org}/jwks.json', '/api/v1/auth/oauth2/register', '/api/v1/auth/oauth2/authorize', '/api/v1/auth/oauth2/token', '/api/v1/auth/oauth2/revoke']) {
      expect(doc.paths[path].servers, path).toEqual([{ url: 'https://auth.example.test', description: '{auth_url}' }])
      for (const op of Object.values<any>(doc.paths[path]).filter((v) => v.operationId)) expect(op).toMatchObject({ security: [], tags: ['oauth'] })
    }
    expect(doc.paths['/api/v1/auth/oauth2/token'].post.requestBody.content).toHaveProperty('application/x-www-form-urlencoded')
    // Every operation: a unique id, tags that exist, and security schemes (with scopes) that exist.
    const operations = Object.values<any>(doc.paths).flatMap((item) => Object.entries<any>(item).filter(([key]) => key !== 'servers').map(([, op]) => op))
    const ids = operations.map((op) => op.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    const tags = doc.tags.map((t: any) => t.name)
    for (const op of operations) {
      for (const tag of op.tags) expect(tags).toContain(tag)
      for (const requirement of op.security ?? []) {
        for (const [name, scopes] of Object.entries<string[]>(requirement)) {
          const scheme = doc.components.securitySchemes[name]
          expect(scheme, `${op.operationId}: ${name}`).toBeDefined()
          for (const scope of scopes) expect(Object.keys(scheme.flows.authorizationCode.scopes)).toContain(scope)
        }
      }
    }
  })
})

/** h3's route syntax as an OpenAPI path: `/designs/v2/:id` → `/designs/v2/{id}`, `/files/**:key` → `/files/{key}`. */
const openApiPath = (route: string) => route.replace(/(?:\*\*)?:(\w+)/g, '{$1}')

/** The operations (method and path) of a document. */
const documented = (doc: any) =>
  Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.keys(item).filter((key) => key !== 'servers').map((method) => ({ method: method.toUpperCase(), path })))

describe('the OpenAPI document and the mounted routes', () => {
  let h: Harness
  beforeAll(async () => {
    // Every option on: a bearer verifier, the built-in authorization server, jobs with webhooks, app-served files, the API reference page, assets.
    h = await createHarness({ withOAuth: {}, withJobs: {}, renderLinks: { masterKey: LINK_MASTER_KEY }, docs: true, assets: memoryAssetStore() })
  })
  afterAll(() => h.close())

  it('documents exactly what is mounted: every route, nothing else; OPTIONS only as CORS preflights, HEAD only through GET', async () => {
    const doc = (await (await h.fetch('/openapi.json')).json()) as any
    const routes = h.app['~routes'].map((r) => ({ method: r.method || 'ALL', path: openApiPath(r.route!), meta: r.meta ?? {} }))
    // OPTIONS routes are CORS preflights (answered before auth), not operations: not documented.
    const preflights = routes.filter((r) => r.method === 'OPTIONS')
    expect(preflights.length).toBeGreaterThan(0)
    for (const route of preflights) expect(route.meta, `OPTIONS ${route.path}`).toMatchObject({ preflight: true })
    // HEAD is answered by the GET route (h3 falls back to it): no HEAD route of its own.
    expect(routes.filter((r) => r.method === 'HEAD')).toEqual([])
    const operations = routes.filter((r) => r.method !== 'OPTIONS')
    const ops = documented(doc)
    // Every mounted route is documented, by its own method; a route of every method (the
    // authorization server's endpoints, /api/mcp) by the one method it documents.
    for (const route of operations) {
      const item = doc.paths[route.path]
      expect(item, `${route.method} ${route.path} is documented`).toBeDefined()
      if (route.method === 'ALL') expect(ops.filter((op) => op.path === route.path), `ALL ${route.path}`).toHaveLength(1)
      else expect(item[route.method.toLowerCase()], `${route.method} ${route.path} is documented`).toBeDefined()
      expect(item[route.method === 'ALL' ? Object.keys(item).find((k) => k !== 'servers')! : route.method.toLowerCase()].operationId).toBe(route.meta.operationId)
    }
    // Nothing is documented that is not mounted.
    for (const op of ops) expect(operations.some((r) => r.path === op.path && (r.method === op.method || r.method === 'ALL')), `${op.method} ${op.path} is mounted`).toBe(true)
    // Every preflight is of a mounted path.
    for (const route of preflights) expect(operations.some((r) => r.path === route.path), `OPTIONS ${route.path}`).toBe(true)
    // And each preflight answers 204 without credentials.
    for (const route of preflights) {
      const path = route.path.replace(/\{org\}/, h.orgId!).replace(/\{[^}]+\}/g, 'x')
      expect((await h.fetch(path, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } })).status, `OPTIONS ${path}`).toBe(204)
    }
  })

  it('mounted under a prefix in another h3 app: routes, errors, discovery documents and the OpenAPI servers name the prefix', async () => {
    const base = `${RENDER_URL}/litho`
    const litho = await createHarness({ withOAuth: {}, withJobs: {}, renderLinks: { masterKey: LINK_MASTER_KEY }, docs: true, renderUrl: base, assets: memoryAssetStore() })
    try {
      const parent = new H3()
      parent.get('/', () => 'parent home')
      parent.mount('/litho', litho.app)
      const get = (path: string, init?: RequestInit) => parent.request(path, init)
      // Every route of the child is routed by the parent under the prefix.
      const parentRoutes = new Set(parent['~routes'].map((r) => `${r.method} ${r.route}`))
      for (const r of litho.app['~routes']) expect(parentRoutes, `${r.method} ${r.route}`).toContain(`${r.method} /litho${r.route}`)
      // The error map and CORS travel with the routes (the parent has no hooks of ours).
      const unauthorized = await get('/litho/v1/abc')
      expect(unauthorized.status).toBe(401)
      expect(await unauthorized.json()).toMatchObject({ success: false, code: 'ERR_UNAUTHORIZED' })
      expect(unauthorized.headers.get('x-content-type-options')).toBe('nosniff')
      const challenge = await get('/litho/designs/v2')
      expect(challenge.status).toBe(401)
      expect(challenge.headers.get('access-control-allow-origin')).toBe('*')
      const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge.headers.get('www-authenticate') ?? '')![1]!
      expect(metadataUrl).toBe(`${base}/.well-known/oauth-protected-resource`)
      expect((await get('/litho/designs/v2', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } })).status).toBe(204)
      // The discovery documents: where the challenge points, naming the prefixed resource.
      const api = await get(new URL(metadataUrl).pathname)
      expect(api.status).toBe(200)
      expect(await api.json()).toMatchObject({ resource: base, resource_documentation: `${base}/openapi.json` })
      expect(await (await get('/litho/.well-known/oauth-protected-resource/api/mcp')).json()).toMatchObject({ resource: `${base}/api/mcp` })
      expect((await get(`/litho/.well-known/oauth-authorization-server/org/${litho.orgId}`)).status).toBe(200)
      // The OpenAPI document: reachable where resource_documentation says, its servers with the prefix.
      const doc = (await (await get('/litho/openapi.json')).json()) as any
      expect(doc.servers).toEqual([{ url: base, description: '{render_url}' }])
      expect(doc.paths['/designs/v2'].servers).toEqual([{ url: base, description: '{base_url}' }])
      expect(doc.components.securitySchemes.oauth2.flows.authorizationCode.authorizationUrl).toBe(`${base}/api/v1/auth/oauth2/authorize`)
      // The API reference page names its files and the document under the prefix.
      const page = await (await get('/litho/docs')).text()
      expect(page).toContain('<script src="/litho/docs/swagger-ui-bundle.js"></script>')
      expect(page).toContain(`data-openapi="${base}/openapi.json"`)
      expect((await get('/litho/docs/swagger-ui.css')).status).toBe(200)
      // Each documented operation is answered at its server's address + path (not a 404 of the parent).
      for (const op of documented(doc)) {
        const path = `/litho${op.path.replace(/\{org\}/, litho.orgId!).replace(/\{[^}]+\}/g, 'x')}`
        const response = await get(path, { method: op.method })
        expect(response.headers.get('x-content-type-options'), `${op.method} ${path} reached Litho`).toBe('nosniff')
        if (response.status === 404) expect(((await response.json()) as any).success, `${op.method} ${path}`).toBe(false)
      }
    } finally {
      await litho.close()
    }
  })
})

describe('docs/http-reference.md', () => {
  it('is what the generator produces from the OpenAPI document now', async () => {
    const { readFileSync } = await import('node:fs')
    const { HTTP_REFERENCE_FILE, renderHttpReference } = await import('../src/app/reference.js')
    // If this fails, run `npx tsx packages/http-h3/scripts/gen-reference.ts` from the repo root.
    expect(readFileSync(new URL(`../../../${HTTP_REFERENCE_FILE}`, import.meta.url), 'utf8')).toBe(renderHttpReference())
  })
})
