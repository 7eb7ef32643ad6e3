// The ways to call a render the playground copies: GET URL, curl, JavaScript, the MCP call.

/** The render URL with the overrides and parameters in its query (and `key` when given). */
export function renderUrl(render: string, params: Record<string, string>, key?: string): string {
  const url = new URL(render)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  if (key) url.searchParams.set('key', key)
  return url.href
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

export function curlSnippet(render: string, params: Record<string, string>, key: string | undefined, format: string): string {
  return `curl -H ${shellQuote(`dma-api-key: ${key ?? '$LITHO_KEY'}`)} -o render.${format === 'jpeg' ? 'jpg' : format} ${shellQuote(renderUrl(render, params))}`
}

export function javascriptSnippet(render: string, params: Record<string, string>, key: string | undefined): string {
  return [
    `const response = await fetch(${JSON.stringify(renderUrl(render, params))}, {`,
    `  headers: { 'dma-api-key': ${key ? JSON.stringify(key) : 'process.env.LITHO_KEY'} },`,
    `})`,
    `if (!response.ok) throw new Error((await response.json()).message)`,
    `const image = new Uint8Array(await response.arrayBuffer())`,
  ].join('\n')
}

/** The MCP `tools/call` of `get_design` for this design (POST it to `{base_url}/api/mcp`). */
export function mcpSnippet(designId: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_design', arguments: { id: designId } } }, null, 2)
}
