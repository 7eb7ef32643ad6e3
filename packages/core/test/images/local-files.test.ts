/**
 * Strings that name local files never reach the filesystem or sharp. A string given to
 * sharp() is a path, so the spy below asserts that sharp only ever receives Buffers.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { LithoError } from '../../src/errors.js'
import { createImageLoader } from '../../src/render/images/index.js'
import { spyOnConnects, testPolicy } from './fixtures.js'

const sharpInputs = vi.hoisted(() => [] as unknown[])

vi.mock('sharp', async (importOriginal) => {
  const real = ((await importOriginal()) as { default: (...args: unknown[]) => unknown }).default
  const spy = Object.assign((...args: unknown[]) => {
    sharpInputs.push(args[0])
    return real(...args)
  }, real)
  return { default: spy }
})

const { default: sharp } = await import('sharp')

beforeEach(() => {
  sharpInputs.length = 0
})

describe('image loader › local file strings', () => {
  const loader = createImageLoader({ policy: testPolicy() })
  const box = { width: 10, height: 10, fit: 'cover' as const }

  for (const src of ['/etc/passwd', '../../config.json', 'file:///etc/hostname', 'FILE:/etc/hostname', ' file:///etc/passwd', 'C:\\Windows\\win.ini']) {
    it(`refuses ${JSON.stringify(src)} before any I/O`, async () => {
      const connects = spyOnConnects()
      try {
        const error = await loader.prepare(src, box).catch((caught: unknown) => caught)
        expect(LithoError.isInstance(error) && error.code).toBe('ERR_IMAGE_FETCH')
        expect((error as LithoError).details.reason).toBe('bad_scheme')
        expect(connects.attempts).toEqual([])
        expect(sharpInputs).toEqual([])
      } finally {
        connects.restore()
      }
    })
  }

  it('hands sharp Buffers only, never strings', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } }).png().toBuffer()
    sharpInputs.length = 0
    await loader.prepare(`data:image/png;base64,${png.toString('base64')}`, box)
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'
    await loader.prepare(`data:image/svg+xml,${encodeURIComponent(svg)}`, box)
    expect(sharpInputs.length).toBeGreaterThanOrEqual(4)
    expect(sharpInputs.every((input) => Buffer.isBuffer(input))).toBe(true)
  })
})
