// A Nitro (or Nuxt: server/routes/og/card.get.ts) route that renders a card in-process with
// @litho/core: GET /og/card?title=Hello&format=png. No Litho server: the design is a file of
// the app, the overrides come from the query, the renderer runs in this process.
import { readFile } from 'node:fs/promises'
import { render } from '@litho/core'
import { defineHandler, getQuery, HTTPError, type EventHandler } from 'h3'

const design = JSON.parse(await readFile(new URL('../../../../social-card.json', import.meta.url), 'utf8')) as unknown
const FORMATS = new Set(['png', 'jpeg', 'webp'])

const card: EventHandler = defineHandler(async (event) => {
  const query = getQuery(event)
  const format = String(query.format ?? 'png')
  if (!FORMATS.has(format)) throw new HTTPError({ status: 400, message: 'format: expected png, jpeg or webp' })
  const title = String(query.title ?? 'Hello from Nitro').slice(0, 120)
  const image = await render(design, { format: format as 'png' | 'jpeg' | 'webp', variation: 'banner', overrides: { 'title.text': title } })
  return new Response(image.bytes, { headers: { 'content-type': image.contentType, 'cache-control': 'public, max-age=3600' } })
})

export default card
