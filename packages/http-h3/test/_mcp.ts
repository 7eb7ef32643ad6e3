// An MCP client for tests: the official SDK client over Streamable HTTP, talking to a harness's
// app in-process with a bearer token, as an agent connects.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { RENDER_URL, type Harness } from './_harness.js'

/** The MCP endpoint of the harness (the token's `resource`). */
export const MCP_URL = `${RENDER_URL}/api/mcp`

/** What a tool call answers, as the tests read it. */
export interface ToolResult {
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>
  isError?: boolean
  structuredContent?: Record<string, unknown>
}

/** A connected client and a `call(tool, args)` that returns the tool's result. */
export async function connectMcp(h: Harness, token: string, name = 'litho-test'): Promise<{ client: Client; call: (tool: string, args?: Record<string, unknown>) => Promise<ToolResult> }> {
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    fetch: async (url, init) => h.app.fetch(new Request(url, init)),
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  })
  const client = new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } })
  await client.connect(transport)
  return { client, call: async (tool, args = {}) => (await client.callTool({ name: tool, arguments: args })) as ToolResult }
}

/** The text parts of a result, one per line. */
export const textOf = (result: ToolResult): string => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n')
