// docs/mcp-tools.md is generated from what the MCP server lists; this fails when it is stale.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { LITHO_TOOLS } from '../src/mcp/tools.js'
import { MCP_REFERENCE_FILE, renderMcpToolReference } from '../src/mcp/reference.js'

describe('docs/mcp-tools.md', () => {
  it('is what the generator produces from the MCP server now', async () => {
    // If this fails, run `npx tsx packages/http-h3/scripts/gen-mcp-reference.ts` from the repo root.
    expect(readFileSync(new URL(`../../../${MCP_REFERENCE_FILE}`, import.meta.url), 'utf8')).toBe(await renderMcpToolReference())
  })

  it('documents every tool with its scope and its input fields', async () => {
    const page = await renderMcpToolReference()
    for (const [name, scope] of Object.entries(LITHO_TOOLS)) {
      expect(page).toContain(`## ${name}\n`)
      expect(page).toMatch(new RegExp(`\\| \\[\`${name}\`\\]\\(#${name}\\) \\| [^|]+ \\| \`${scope}\` \\|`))
    }
    // The patch format is expanded, down to the fields of the objects in its arrays.
    for (const field of ['patch.components', 'patch.add[].component', 'patch.add[].parent', 'patch.move[].index', 'patch.remove']) expect(page).toContain(`| \`${field}\` |`)
  })
})
