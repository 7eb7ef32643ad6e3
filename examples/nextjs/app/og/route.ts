// A Next.js App Router route handler (app/og/route.ts) that renders a card in-process with
// @litho/core: GET /og?title=Hello. It is a Web-standard function (Request in, Response out),
// so it runs in the Node.js runtime as it is; @litho/core needs Node (sharp, resvg), so keep
// `runtime = 'nodejs'`.
import { readFile } from 'node:fs/promises'
import { render } from '@litho/core'

export const runtime = 'nodejs'

const design = JSON.parse(await readFile(new URL('../../../social-card.json', import.meta.url), 'utf8')) as unknown

export async function GET(request: Request): Promise<Response> {
  const url = new URL(request.url)
  const title = (url.searchParams.get('title') ?? 'Hello from Next.js').slice(0, 120)
  const variation = url.searchParams.get('size') === 'story' ? 'story' : 'banner'
  const card = await render(design, { format: 'png', variation, overrides: { 'title.text': title } })
  return new Response(card.bytes, { headers: { 'content-type': card.contentType, 'cache-control': 'public, max-age=3600' } })
}
