/**
 * Writes `docs/mcp-tools.md` from the tools the MCP server lists.
 * Run from the repo root: `npx tsx packages/http-h3/scripts/gen-mcp-reference.ts`.
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { MCP_REFERENCE_FILE, renderMcpToolReference } from '../src/mcp/reference.js'

writeFileSync(fileURLToPath(new URL(`../../../${MCP_REFERENCE_FILE}`, import.meta.url)), await renderMcpToolReference())
console.log(`wrote ${MCP_REFERENCE_FILE}`)
