// The README's install step is quiet: every dependency with a build script is decided in
// pnpm-workspace.yaml (`onlyBuiltDependencies`), so pnpm prints no "Ignored build scripts"
// warning. pnpm records what it ignored in node_modules/.modules.yaml, written by the install
// that ran before this suite (CI runs `pnpm install` first).
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

describe('install', () => {
  it('install › no dependency build script was left undecided (pnpm ignored none)', () => {
    const modules = JSON.parse(readFileSync(`${ROOT}node_modules/.modules.yaml`, 'utf8')) as { ignoredBuilds?: string[] }
    expect(modules.ignoredBuilds ?? [], 'add each to onlyBuiltDependencies (or ignoredBuiltDependencies) in pnpm-workspace.yaml, saying why').toEqual([])
  })
})
