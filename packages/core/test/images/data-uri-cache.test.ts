// data: URIs are decoded once per text and loader (render/images/image-loader): counted here
// through the decoder's caller, fetchRemote.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { LithoError } from '../../src/errors.js'
import { createImageLoader } from '../../src/render/images/index.js'
import { solidPng } from './fixtures.js'

const { decodes } = vi.hoisted(() => ({ decodes: { count: 0 } }))
vi.mock('../../src/render/images/fetch-remote.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/render/images/fetch-remote.js')>()
  return {
    ...original,
    fetchRemote: (url: string, options: Parameters<typeof original.fetchRemote>[1]) => {
      decodes.count++
      return original.fetchRemote(url, options)
    },
  }
})

const box = { width: 20, height: 10, fit: 'cover' as const }
const caught = async (promise: Promise<unknown>): Promise<LithoError> => {
  const error = await promise.then(() => undefined, (e: unknown) => e)
  if (!LithoError.isInstance(error)) throw new Error(`expected a LithoError, got ${String(error)}`)
  return error
}

beforeEach(() => {
  decodes.count = 0
})

describe('data: URI cache', () => {
  it('data uri cache › a data: URI is decoded once, whatever box and string object it comes in', async () => {
    const loader = createImageLoader()
    const uri = `data:image/png;base64,${(await solidPng(40, 20, '#ff0000')).toString('base64')}`
    const first = await loader.prepare(uri, box)
    await loader.prepare(uri, { width: 10, height: 10, fit: 'contain' })
    // The same text in a new string object (as a structured clone delivers it).
    expect(await loader.prepare((' ' + uri).slice(1), box)).toBe(first)
    expect(decodes.count).toBe(1)
    loader.clear()
    await loader.prepare(uri, box)
    expect(decodes.count).toBe(2)
  })

  it('data uri cache › a bad data: URI is decoded, and refused the same way, every time', async () => {
    const loader = createImageLoader()
    const uri = `data:image/png;base64,${'!'.repeat(40)}`
    const first = await caught(loader.prepare(uri, box))
    const second = await caught(loader.prepare(uri, box))
    expect(first.code).toBe('ERR_IMAGE_FETCH')
    expect(first.details.reason).toBe('bad_data_uri')
    expect(second.message).toBe(first.message)
    expect(second.details).toEqual(first.details)
    expect(decodes.count).toBe(2)
  })

  it('data uri cache › bounded in bytes: a URI whose text and bytes exceed cacheBytes is decoded every time', async () => {
    const png = await solidPng(40, 20, '#0000ff')
    const uri = `data:image/png;base64,${png.toString('base64')}`
    // Room for the prepared image, not for the source's text plus bytes.
    const loader = createImageLoader({ cacheBytes: uri.length + png.length - 1 })
    await loader.prepare(uri, box)
    await loader.prepare(uri, box)
    expect(decodes.count).toBe(2)
    const roomy = createImageLoader({ cacheBytes: uri.length + png.length })
    await roomy.prepare(uri, box)
    await roomy.prepare(uri, box)
    expect(decodes.count).toBe(3)
  })

  it('data uri cache › a TTL of 0 (remote bytes never reused) still keeps decoded data: URIs', async () => {
    const loader = createImageLoader({ cacheTtlMs: 0 })
    const uri = `data:image/png;base64,${(await solidPng(8, 8, '#00ff00')).toString('base64')}`
    await loader.prepare(uri, box)
    await loader.prepare(uri, box)
    expect(decodes.count).toBe(1)
  })
})
