// Each example, run as its users would run it: the Nitro route and the Next.js route handler
// called with a Request, the Express app over HTTP on a loopback port, the HTML page's signed
// links fetched without a key. Each answer must be an image of the size asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { H3 } from 'h3'
import { GET as nextGet } from './nextjs/app/og/route.js'
import nitroCard from './nitro/server/routes/og/card.get.js'
import { startExpressApp } from './express/app.js'
import { makePage } from './html/make-page.js'

/** The format and size of a PNG, JPEG or WebP, from its header. */
function imageSize(bytes: Uint8Array): { type: string; width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return { type: 'png', width: view.getUint32(16), height: view.getUint32(20) }
  if (String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP' && String.fromCharCode(...bytes.subarray(12, 16)) === 'VP8X')
    return { type: 'webp', width: 1 + (view.getUint32(24, true) & 0xffffff), height: 1 + (view.getUint32(27, true) & 0xffffff) }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    // Walk the JPEG segments to the start of frame.
    for (let at = 2; at < bytes.length; ) {
      const marker = bytes[at + 1]!
      if (marker >= 0xc0 && marker <= 0xc2) return { type: 'jpeg', width: view.getUint16(at + 7), height: view.getUint16(at + 5) }
      at += 2 + view.getUint16(at + 2)
    }
  }
  return { type: 'unknown', width: 0, height: 0 }
}

const imageOf = async (response: Response) => ({ status: response.status, contentType: response.headers.get('content-type'), ...imageSize(new Uint8Array(await response.arrayBuffer())) })

describe('nitro/server/routes/og/card.get.ts', () => {
  it('renders the banner (1200x630) with the title of the query, in the format asked for', async () => {
    // Nitro mounts the file's handler at /og/card; an h3 app does the same here.
    const app = new H3().get('/og/card', nitroCard)
    expect(await imageOf(await app.request('/og/card?title=Hello%20Nitro'))).toEqual({ status: 200, contentType: 'image/png', type: 'png', width: 1200, height: 630 })
    expect(await imageOf(await app.request('/og/card?format=jpeg'))).toMatchObject({ status: 200, contentType: 'image/jpeg', type: 'jpeg', width: 1200, height: 630 })
    expect((await app.request('/og/card?format=gif')).status).toBe(400)
  })
})

describe('nextjs/app/og/route.ts', () => {
  it('GET(request) answers the card as a PNG: the banner, or the story size', async () => {
    expect(await imageOf(await nextGet(new Request('https://example.com/og?title=Hello%20Next')))).toEqual({ status: 200, contentType: 'image/png', type: 'png', width: 1200, height: 630 })
    expect(await imageOf(await nextGet(new Request('https://example.com/og?size=story')))).toMatchObject({ status: 200, width: 1080, height: 1920 })
  })
})

describe('express/app.ts and html/make-page.ts', () => {
  let app: Awaited<ReturnType<typeof startExpressApp>>
  beforeAll(async () => {
    app = await startExpressApp(0)
  })
  afterAll(() => app.close())

  it('Express serves its own routes and Litho under /litho: a render with the key is the 1080x1080 card', async () => {
    expect(await (await fetch(`${app.origin}/`)).text()).toContain('/litho')
    const url = `${app.renderUrl}/v1/${app.seeded.renderCode}?format=png&title.text=From%20Express`
    expect(await imageOf(await fetch(url, { headers: { 'dma-api-key': app.seeded.key } }))).toEqual({ status: 200, contentType: 'image/png', type: 'png', width: 1080, height: 1080 })
    expect((await fetch(url)).status, 'no key').toBe(401)
    // A POST body reaches Litho through Express (no body parser in front).
    const posted = await fetch(`${app.renderUrl}/v1/${app.seeded.renderCode}?format=png&variation=banner`, { method: 'POST', headers: { 'dma-api-key': app.seeded.key, 'content-type': 'application/json' }, body: JSON.stringify({ title: { text: 'Posted' } }) })
    expect(await imageOf(posted)).toMatchObject({ status: 200, width: 1200, height: 630 })
    expect((await fetch(`${app.renderUrl}/openapi.json`)).status).toBe(200)
  })

  it('the HTML page holds no key, and each of its signed links renders its card at its size', async () => {
    const html = await makePage({ renderUrl: app.renderUrl, renderCode: app.seeded.renderCode, keyId: app.seeded.keyId, linkSecret: app.seeded.linkSecret, cards: [{ title: 'Spring sale' }, { title: 'Summer & sun', variation: 'banner' }] })
    expect(html).not.toContain(app.seeded.key)
    expect(html).not.toContain(app.seeded.linkSecret)
    const sources = [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'))
    expect(sources).toHaveLength(2)
    expect(await imageOf(await fetch(sources[0]!))).toEqual({ status: 200, contentType: 'image/png', type: 'png', width: 1080, height: 1080 })
    expect(await imageOf(await fetch(sources[1]!))).toMatchObject({ status: 200, width: 1200, height: 630 })
    // A link changed by hand no longer renders.
    expect((await fetch(sources[0]!.replace('Spring', 'Autumn'))).status).toBe(403)
  })
})
