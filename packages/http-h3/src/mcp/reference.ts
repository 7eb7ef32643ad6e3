/**
 * The MCP tool reference page (`docs/mcp-tools.md`), generated from what the server itself
 * answers to `tools/list`: each tool's name, title, annotations, description and input JSON
 * Schema (converted from the zod schemas the tools validate with), plus the scope of
 * {@link LITHO_TOOLS}. So the page, the tool list an agent sees and the validation share one
 * source.
 *
 * The server runs in-process over the SDK's in-memory transport, spoken to with plain JSON-RPC
 * (`initialize`, `notifications/initialized`, `tools/list`, `resources/list`): no HTTP, no token, no client
 * library. The tools are only listed, never called, so the context is a stub.
 *
 * @module mcp/reference
 */
import type { DesignStore } from '@litho/core/contracts'
import { InMemoryTransport, LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/server'
import { LITHO_TOOLS, createLithoMcpServer, type LithoToolContext } from './tools.js'

type Json = Record<string, any>

/** Where the reference is written, relative to the repository root. */
export const MCP_REFERENCE_FILE = 'docs/mcp-tools.md'

/** A value whose every property access fails: the tools are listed, never called. */
function unavailable<T>(what: string): T {
  return new Proxy({}, { get: (_, property) => { throw new Error(`${what}.${String(property)}: the tool reference lists the tools and never calls them`) } }) as T
}

/** What the server says about itself and its tools, over an in-memory connection. */
async function listTools(): Promise<{ serverInfo: Json; instructions: string | undefined; tools: Json[]; resources: Json[] }> {
  const context: LithoToolContext = {
    designs: unavailable<DesignStore>('designs'),
    renderer: unavailable<LithoToolContext['renderer']>('renderer'),
    meter: unavailable<LithoToolContext['meter']>('meter'),
    clock: { now: () => new Date(0) },
    renderUrl: 'https://render.example.com',
    account: { id: 'u_reference', plan: 'free' },
    assets: unavailable<NonNullable<LithoToolContext['assets']>>('assets'),
    network: { allowHttp: false, allowNetworks: [] },
  }
  const server = createLithoMcpServer(context)
  const [client, serverSide] = InMemoryTransport.createLinkedPair()
  const pending = new Map<number, { resolve: (result: Json) => void; reject: (error: Error) => void }>()
  client.onmessage = (message: JSONRPCMessage) => {
    const reply = message as Json
    const waiting = typeof reply.id === 'number' ? pending.get(reply.id) : undefined
    if (!waiting) return
    pending.delete(reply.id)
    if (reply.error) waiting.reject(new Error(`MCP error ${reply.error.code}: ${reply.error.message}`))
    else waiting.resolve(reply.result as Json)
  }
  let nextId = 0
  const request = (method: string, params: Json = {}): Promise<Json> =>
    new Promise((resolve, reject) => {
      const id = ++nextId
      const timer = setTimeout(() => {
        pending.delete(id)
        reject(new Error(`MCP ${method}: no answer within 10 seconds`))
      }, 10_000)
      pending.set(id, {
        resolve: (result) => (clearTimeout(timer), resolve(result)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      })
      client.send({ jsonrpc: '2.0', id, method, params }).catch(reject)
    })

  await server.connect(serverSide)
  await client.start()
  try {
    const init = await request('initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'litho-mcp-reference', version: '1.0.0' } })
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    const tools: Json[] = []
    let cursor: string | undefined
    do {
      const page = await request('tools/list', cursor === undefined ? {} : { cursor })
      tools.push(...(page.tools as Json[]))
      cursor = page.nextCursor as string | undefined
    } while (cursor !== undefined)
    const resources = ((await request('resources/list')).resources ?? []) as Json[]
    return { serverInfo: init.serverInfo as Json, instructions: init.instructions as string | undefined, tools, resources }
  } finally {
    await client.close()
    await server.close()
  }
}

const cell = (text: unknown) => String(text ?? '').replace(/\|/g, '\\|').replace(/\n+/g, ' ')

/** The largest integer JSON Schema says for "no upper limit" (zod's `.int()` without `.max()`). */
const UNBOUNDED = Number.MAX_SAFE_INTEGER

/** `1-100`, `≥ 1`, `≤ 64`, or nothing. */
function range(min: unknown, max: unknown, unit = ''): string {
  const lo = typeof min === 'number' ? min : undefined
  const hi = typeof max === 'number' && max < UNBOUNDED ? max : undefined
  if (lo !== undefined && hi !== undefined) return `${lo}-${hi}${unit}`
  if (lo !== undefined) return `≥ ${lo}${unit}`
  if (hi !== undefined) return `≤ ${hi}${unit}`
  return ''
}

/** The type of a JSON Schema in words: `integer, 1-100`, `"draft" or "published"`, `array of string`, `object of (object or null)`. */
function typeOf(schema: Json | undefined): string {
  if (!schema || Object.keys(schema).filter((k) => k !== 'description' && k !== 'default').length === 0) return 'any JSON value'
  if (schema.enum) return (schema.enum as unknown[]).map((v) => `\`${JSON.stringify(v)}\``).join(' or ')
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``
  if (schema.anyOf) return (schema.anyOf as Json[]).map((option) => typeOf(option)).join(' or ')
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : String(schema.type ?? 'object')
  if (type === 'array') {
    const items = schema.items as Json | undefined
    const item = items && Object.keys(items).length > 0 ? (items.type === 'object' && items.properties ? 'objects' : typeOf(items)) : ''
    const of = item ? ` of ${/[, ]/.test(item) ? `(${item})` : item}` : ''
    const count = range(schema.minItems, schema.maxItems, ' items')
    return `array${of}${count ? `, ${count}` : ''}`
  }
  if (type === 'object') {
    if (schema.properties) return 'object'
    const values = schema.additionalProperties
    if (values && typeof values === 'object' && Object.keys(values).length > 0) return `object of ${(values as Json).anyOf ? `(${typeOf(values)})` : typeOf(values)} by key`
    return 'object'
  }
  if (type === 'string') {
    const length = schema.minLength === 1 && schema.maxLength === undefined ? 'not empty' : range(schema.minLength, schema.maxLength, ' characters')
    return `string${schema.format ? ` (${schema.format})` : ''}${length ? `, ${length}` : ''}`
  }
  if (type === 'integer' || type === 'number') {
    const bounds = range(schema.minimum, schema.maximum)
    return `${type}${bounds ? `, ${bounds}` : ''}`
  }
  return type
}

/** One row per field, nested objects (and objects in arrays) expanded with dotted names: `patch.add[].parent`. */
function fieldRows(schema: Json, prefix = ''): string[] {
  const rows: string[] = []
  const required: string[] = schema.required ?? []
  for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) {
    const path = `${prefix}${name}`
    const fallback = property.default === undefined ? '' : `\`${JSON.stringify(property.default)}\``
    rows.push(`| \`${path}\` | ${cell(typeOf(property))} | ${required.includes(name) ? 'yes' : 'no'} | ${cell(fallback)} | ${cell(property.description)} |`)
    if (property.type === 'object' && property.properties) rows.push(...fieldRows(property, `${path}.`))
    else if (property.type === 'array' && property.items?.type === 'object' && property.items.properties) rows.push(...fieldRows(property.items, `${path}[].`))
  }
  return rows
}

/** The MCP annotations in words: `read-only, idempotent` or `changes data, destructive`. */
function hintsOf(annotations: Json | undefined): string {
  const a = annotations ?? {}
  const words: string[] = []
  if (a.readOnlyHint === true) words.push('read-only')
  else {
    words.push('changes data')
    // MCP defaults for a tool that is not read-only: destructive, not idempotent.
    words.push(a.destructiveHint === false ? 'not destructive' : 'destructive')
  }
  if (a.idempotentHint === true) words.push('idempotent')
  if (a.openWorldHint === true) words.push('open world')
  return words.join(', ')
}

function scopeOf(name: string): 'read' | 'write' {
  const scope = (LITHO_TOOLS as Record<string, 'read' | 'write' | undefined>)[name]
  if (scope === undefined) throw new Error(`tool ${name} is not in LITHO_TOOLS (tools.ts): add it with the scope it needs`)
  return scope
}

const SCOPE_TEXT = { read: '`read`', write: '`write` (the token needs `read write`)' } as const

/** The markdown of `docs/mcp-tools.md`. */
export async function renderMcpToolReference(): Promise<string> {
  const { serverInfo, instructions, tools, resources } = await listTools()
  const listed = new Set(tools.map((t) => String(t.name)))
  for (const name of Object.keys(LITHO_TOOLS)) if (!listed.has(name)) throw new Error(`LITHO_TOOLS names ${name}, which the server does not list`)
  const out: string[] = [
    '# MCP tool reference',
    '',
    '<!-- Generated by `npx tsx packages/http-h3/scripts/gen-mcp-reference.ts` from the tools the MCP server lists; do not edit. A test fails when it is stale. -->',
    '',
    'The tools of the MCP endpoint `{base_url}/api/mcp`, exactly as its `tools/list` describes them to an agent: names, titles, annotations, descriptions and input JSON Schemas come from the server, the scopes from `LITHO_TOOLS` (`packages/http-h3/src/mcp/tools.ts`). ' +
      'How to connect a client, sign in and which scope to ask for: [connecting an MCP client](./mcp.md). A whole session, call by call: [worked example](./mcp-worked-example.md).',
    '',
    `Server: \`${serverInfo.name}\` ("${serverInfo.title ?? serverInfo.name}"), version ${serverInfo.version}.`,
    '',
    'Every tool acts for the user of the access token and sees only that user\'s designs. A token needs `read` for the endpoint at all; the tools that change data also need `write` ' +
      '(a `read` token gets 403 `insufficient_scope` for them). A failed call is a tool result with `isError: true` whose text names each problem by its JSON path.',
    '',
    'The annotations are hints for the host (MCP `ToolAnnotations`): *read-only* tools change nothing; *destructive* ones may remove data; *idempotent* ones can be repeated with the same arguments to no further effect; *open world* ones reach outside Litho (a preview fetches the design\'s remote images and fonts).',
    '',
  ]
  if (instructions) out.push('## Server instructions', '', 'What the server tells every client when it connects (`instructions`):', '', ...instructions.split('\n').map((line) => `> ${line}`), '')
  out.push('## Tools', '', '| Tool | Title | Scope | Annotations |', '|---|---|---|---|')
  for (const tool of tools) out.push(`| [\`${tool.name}\`](#${tool.name}) | ${cell(tool.title)} | \`${scopeOf(tool.name)}\` | ${hintsOf(tool.annotations)} |`)
  out.push('')
  for (const tool of tools) {
    const annotations = Object.entries<unknown>(tool.annotations ?? {})
      .map(([k, v]) => `\`${k}: ${JSON.stringify(v)}\``)
      .join(', ')
    out.push(`## ${tool.name}`, '', `**${tool.title ?? tool.name}.** ${tool.description ?? ''}`.trim(), '')
    out.push(`Scope: ${SCOPE_TEXT[scopeOf(tool.name)]}. Annotations: ${hintsOf(tool.annotations)}${annotations ? ` (${annotations})` : ''}.`, '')
    const rows = fieldRows(tool.inputSchema ?? {})
    if (rows.length === 0) out.push('Input: none (`{}`).', '')
    else {
      out.push('Input (nested fields with dotted names; *required* is within the enclosing object):', '', '| Field | Type | Required | Default | Description |', '|---|---|---|---|---|', ...rows, '')
      const top = tool.inputSchema?.properties ?? {}
      for (const [name, property] of Object.entries<Json>(top)) {
        if (property.type === 'object' && property.properties && property.additionalProperties === false) out.push(`\`${name}\` accepts only the fields listed; any other is an error.`, '')
      }
    }
    if (tool.outputSchema) out.push('Output: structured content as described by its `outputSchema`.', '')
  }
  if (resources.length > 0) {
    out.push('## Resources', '', 'Read-only documents the server lists under `resources/list` and returns from `resources/read` (scope `read`):', '', '| URI | Name | Type | Description |', '|---|---|---|---|')
    for (const r of resources) out.push(`| \`${r.uri}\` | ${cell(r.title ?? r.name)} | \`${r.mimeType ?? ''}\` | ${cell(r.description)} |`)
    out.push('')
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`
}
