/**
 * Colour emoji from the @twemoji/svg package: satori asks for an image per emoji
 * grapheme, and we answer with the Twemoji SVG as a data URI (no network).
 *
 * @module render/fonts/emoji
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
let twemojiDir: string | undefined

// One entry per distinct emoji ever drawn; Unicode defines about 3,700, which bounds it.
const uris = new Map<string, string | null>()

/** Twemoji file name for a grapheme: code points in hex joined by "-", FE0F dropped unless it has a ZWJ. */
export function twemojiName(grapheme: string): string {
  const cps = [...grapheme].map((c) => c.codePointAt(0)!.toString(16))
  const keep = grapheme.includes('\u200d') ? cps : cps.filter((cp) => cp !== 'fe0f')
  return keep.join('-')
}

/** A `data:image/svg+xml` URI of the Twemoji image for `grapheme`, or undefined if there is none. */
export function emojiDataUri(grapheme: string): string | undefined {
  let uri = uris.get(grapheme)
  if (uri === undefined) {
    twemojiDir ??= dirname(require.resolve('@twemoji/svg/package.json'))
    const names = [twemojiName(grapheme), [...grapheme].map((c) => c.codePointAt(0)!.toString(16)).filter((cp) => cp !== 'fe0f').join('-')]
    const file = names.map((n) => join(twemojiDir!, `${n}.svg`)).find((f) => existsSync(f))
    uri = file ? `data:image/svg+xml;base64,${readFileSync(file).toString('base64')}` : null
    uris.set(grapheme, uri)
  }
  return uri ?? undefined
}
