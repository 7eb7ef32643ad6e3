// The shape the redesign left the sources in, kept by a test so it does not drift back:
// files a reader can hold in their head, and comments that cite only what a reader can open
// (docs pages of this repository, RFCs, upstream issues), never notes kept outside it.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
const SKIP = new Set(['node_modules', 'dist', '.turbo', 'coverage'])

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path, out)
    else if (/\.(ts|mts|mjs|md)$/.test(name)) out.push(path)
  }
  return out
}

const files = [...walk(join(ROOT, 'packages')), ...walk(join(ROOT, 'docs')), join(ROOT, 'README.md')]
const rel = (path: string) => relative(ROOT, path)

/** Largest hand-written source file, in lines (generated files and test fixtures aside). */
const MAX_SOURCE_LINES = 400
/** Documents that are not in this repository: the spec and research notes the code grew from. */
const OUTSIDE = /\b(?:interface\.md|design-v2\.md|spec\/cli\.md|reliability\.md|render-stack\.md|auth-mcp\.md|aesthetics\.md|ARCHITECTURE\.md|STYLE\.md)/

describe('source shape', () => {
  it('no source file under packages/*/src is over 400 lines', () => {
    const long = files
      .filter((path) => /\/packages\/[^/]+\/src\/.*\.(ts|mts|mjs)$/.test(path))
      .map((path) => ({ path: rel(path), lines: readFileSync(path, 'utf8').split('\n').length }))
      .filter((file) => file.lines > MAX_SOURCE_LINES)
    expect(long).toEqual([])
  })

  it('no comment or page cites a document that is not in the repository', () => {
    const cited = files.flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .map((line, index) => ({ at: `${rel(path)}:${index + 1}`, line }))
        .filter(({ line }) => OUTSIDE.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    )
    expect(cited).toEqual([])
  })
})
