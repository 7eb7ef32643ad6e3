// A plain HTML page whose <img> tags are signed render links (docs/signed-render-links.md):
// made once, offline, with signRenderUrl and a render key's link secret. The page holds no key:
// each link renders exactly its design, overrides and size, until it expires.
import { writeFile } from 'node:fs/promises'
import { signRenderUrl } from '@litho/client'

/** One card of the page: the alt text doubles as the title override. */
export interface Card {
  title: string
  variation?: string
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

/** The page's HTML: one signed link per card, valid for `days`. */
export async function makePage(options: { renderUrl: string; renderCode: string; keyId: string; linkSecret: string; cards: Card[]; days?: number }): Promise<string> {
  const expiresAt = new Date(Date.now() + (options.days ?? 30) * 86_400_000)
  const images: string[] = []
  for (const card of options.cards) {
    const params: Record<string, string> = { format: 'png', 'title.text': card.title, ...(card.variation ? { variation: card.variation } : {}) }
    const src = await signRenderUrl({ baseUrl: options.renderUrl, designId: options.renderCode, params, keyId: options.keyId, secret: options.linkSecret, expiresAt })
    images.push(`  <img src="${escape(src)}" alt="${escape(card.title)}" width="600">`)
  }
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Cards</title></head>
<body>
${images.join('\n')}
</body>
</html>
`
}

// `LITHO_RENDER_URL=… LITHO_DESIGN=… LITHO_KEY_ID=… LITHO_LINK_SECRET=… npx tsx examples/html/make-page.ts` writes index.html.
if (import.meta.url === `file://${process.argv[1]}`) {
  const env = (name: string) => process.env[name] ?? (console.error(`set ${name}`), process.exit(2))
  const html = await makePage({ renderUrl: env('LITHO_RENDER_URL'), renderCode: env('LITHO_DESIGN'), keyId: env('LITHO_KEY_ID'), linkSecret: env('LITHO_LINK_SECRET'), cards: [{ title: 'Spring sale' }, { title: 'Summer sale', variation: 'banner' }] })
  await writeFile('index.html', html)
  console.log('wrote index.html')
}
