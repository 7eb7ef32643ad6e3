// The reference card (card1080 of @litho/testing) built for Takumi (@takumi-rs/core), the peer
// of docs/performance.md "Against Takumi": same photo bytes, same Inter files as Litho's built-in
// Inter, the QR placed as an image (Takumi draws none; Litho's own QR, rendered once to PNG).
// @takumi-rs/core is a devDependency of the private workspace root only, never of a package.
import { readFileSync } from 'node:fs'

const px = (n) => `${n}px`
const box = (x, y, width, height) => ({ position: 'absolute', left: px(x), top: px(y), width: px(width), height: px(height) })

/** The card as a Takumi node tree, from the Litho design (card1080) with `title` as the title. */
export function takumiCard(design, title) {
  const byKey = Object.fromEntries(design.components.map((c) => [c.key, c]))
  const { photo, subtitle, badge, qr } = byKey
  const head = byKey.title
  const stops = design.background.stops.map((s) => `${s.color} ${s.offset * 100}%`).join(', ')
  return {
    type: 'container',
    style: { position: 'relative', display: 'flex', width: px(design.width), height: px(design.height), fontFamily: 'Inter', backgroundImage: `linear-gradient(${design.background.angle}deg, ${stops})` },
    children: [
      { type: 'image', src: 'photo', style: { ...box(photo.x, photo.y, photo.width, photo.height), objectFit: 'cover', borderRadius: px(photo.radius) } },
      {
        type: 'text',
        text: title,
        style: { ...box(head.x, head.y, head.width, head.height), fontSize: px(head.fontSize), fontWeight: head.fontWeight, lineHeight: px(head.fontSize * head.lineHeight), color: head.color, lineClamp: head.maxLines, textOverflow: 'ellipsis' },
      },
      { type: 'text', text: subtitle.text, style: { ...box(subtitle.x, subtitle.y, subtitle.width, subtitle.height), fontSize: px(subtitle.fontSize), lineHeight: px(subtitle.fontSize * subtitle.lineHeight), color: subtitle.color } },
      {
        type: 'container',
        style: { ...box(badge.x, badge.y, badge.width, badge.height), display: 'flex', alignItems: 'center', justifyContent: 'center', backgroundColor: badge.background, borderRadius: px(badge.radius) },
        children: [{ type: 'text', text: badge.text, style: { fontSize: px(badge.fontSize), fontWeight: badge.fontWeight, color: badge.color } }],
      },
      { type: 'image', src: 'qr', style: box(qr.x, qr.y, qr.width, qr.height) },
    ],
  }
}

/**
 * Loads @takumi-rs/core and one Renderer with the card's fonts. `assets` (all file paths):
 * `design` (JSON of card1080), `photo` and `qr` (image bytes), `fonts` ([{ file, weight }]).
 * Returns `render(title, format)` → the encoded bytes (JPEG and WebP at quality 80).
 */
export async function loadTakumi(assets) {
  const { Renderer } = await import('@takumi-rs/core')
  const renderer = new Renderer()
  for (const font of assets.fonts) await renderer.registerFont({ name: 'Inter', data: readFileSync(font.file), weight: font.weight, style: 'normal' })
  const design = JSON.parse(readFileSync(assets.design, 'utf8'))
  const images = [
    { src: 'photo', data: readFileSync(assets.photo) },
    { src: 'qr', data: readFileSync(assets.qr) },
  ]
  return {
    render: (title, format) =>
      renderer.render(takumiCard(design, title), { width: design.width, height: design.height, format, images, ...(format === 'png' ? {} : { quality: 80 }) }),
  }
}
