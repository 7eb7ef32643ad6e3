// ioredis and bullmq are optional peer dependencies, imported only when a Redis store or queue
// makes its first call; a missing one must say which package to install.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { importPeer, isOwnError } from '../src/kit/errors.js'

describe('optional peers', () => {
  it('a missing optional peer rejects with ERR_MODULE_NOT_FOUND naming the package to install', async () => {
    // A specifier that names no installed package, standing in for ioredis or bullmq.
    const error = await importPeer('redis', 'litho-no-such-package', () => import('litho-no-such-package' as string)).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ code: 'ERR_MODULE_NOT_FOUND', packageName: 'litho-no-such-package' })
    expect((error as Error).message).toContain('npm install litho-no-such-package')
    // The backend wrappers pass it through instead of turning it into ERR_STORAGE.
    expect(isOwnError(error)).toBe(true)
  })

  it('any other failure of the import is not mistaken for a missing package', async () => {
    const failure = Object.assign(new Error("Cannot find package 'something-else'"), { code: 'ERR_MODULE_NOT_FOUND' })
    await expect(importPeer('redis', 'ioredis', () => Promise.reject(failure))).rejects.toBe(failure)
  })

  it('ioredis and bullmq are optional peers, not dependencies', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>
    for (const name of ['ioredis', 'bullmq']) {
      expect(manifest.dependencies?.[name]).toBeUndefined()
      expect(manifest.peerDependencies?.[name]).toBeDefined()
      expect(manifest.peerDependenciesMeta?.[name]).toEqual({ optional: true })
    }
  })
})
