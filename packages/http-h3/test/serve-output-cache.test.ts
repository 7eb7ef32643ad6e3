// `litho serve --output-cache-mb N --shared-output-cache` (docs/serve.md, docs/performance.md).
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { serveCommand, UsageError } from '../src/index.js'

const root = mkdtempSync(join(tmpdir(), 'litho-serve-cache-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('serve › output cache flags', () => {
  it.each([['x'], ['-1'], ['1.5'], ['1048577']])('serve › --output-cache-mb %s is a usage error naming the flag, before anything starts', async (value) => {
    const data = join(root, `unused-${value}`)
    await expect(serveCommand([`--output-cache-mb=${value}`, '--data', data, '--port', '0'], { log: () => {}, env: {} })).rejects.toThrow(UsageError)
    await expect(serveCommand([`--output-cache-mb=${value}`, '--data', data, '--port', '0'], { log: () => {}, env: {} })).rejects.toThrow(/^--output-cache-mb: expected a whole number from 0 to 1048576/)
    expect(existsSync(data), 'nothing opened').toBe(false)
  })

  it('serve › LITHO_OUTPUT_CACHE_MB and LITHO_OUTPUT_CACHE_SHARED configure the cache, and the start log says so', async () => {
    const lines: string[] = []
    let stop!: (signal: string) => void
    const stopSignal = new Promise<string>((resolve) => (stop = resolve))
    const code = await serveCommand(['--port', '0', '--threads', '1', '--data', join(root, 'data')], {
      log: (line) => lines.push(line),
      env: { LITHO_OUTPUT_CACHE_MB: '0', LITHO_OUTPUT_CACHE_SHARED: '1' },
      stopSignal,
      onListening: () => stop('test'),
    })
    expect(code).toBe(0)
    expect(lines).toContain('output cache: no memory, shared through the file store')
  })
})
