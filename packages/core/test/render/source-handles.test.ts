import { describe, expect, it } from 'vitest'
import { resolveDocument, type ResolvedDocument } from '../../src/index.js'
import { walkComponents } from '../../src/design/walk.js'
import { HANDLE_MIN_CHARS, createSourceStore, toHandles } from '../../src/render/source-handles.js'

const big = `data:image/png;base64,${'A'.repeat(HANDLE_MIN_CHARS)}`
const bigFont = `data:font/ttf;base64,${'B'.repeat(HANDLE_MIN_CHARS)}`
const small = `data:image/png;base64,${'A'.repeat(64)}`

function resolved(): ResolvedDocument {
  return resolveDocument({
    version: 2,
    width: 100,
    height: 100,
    fonts: [{ family: 'Mine', src: bigFont }],
    components: [
      { type: 'image', key: 'a', width: 10, height: 10, src: big },
      { type: 'group', key: 'g', width: 50, height: 50, children: [{ type: 'image', key: 'b', width: 10, height: 10, src: big }] },
      { type: 'image', key: 'c', width: 10, height: 10, src: small },
      { type: 'image', key: 'd', width: 10, height: 10, src: 'https://images.example.com/a.png' },
    ],
  })
}
/** The font's source, then each image's, by key. */
function srcs(doc: ResolvedDocument): Record<string, string> {
  const out: Record<string, string> = { font: doc.document.fonts[0]!.src }
  walkComponents(doc.document.components, (c) => {
    if (c.type === 'image') out[c.key] = c.src!
  })
  return out
}

describe('source handles', () => {
  it('handles › large data: URIs of images (groups included) and fonts become handles; small ones and URLs stay', () => {
    const original = resolved()
    const before = JSON.stringify(original)
    const { resolved: light, texts } = toHandles(original)
    expect(texts.size).toBe(2)
    const byText = new Map([...texts].map(([handle, text]) => [text, handle]))
    expect(srcs(light)).toEqual({ font: byText.get(bigFont), a: byText.get(big), b: byText.get(big), c: small, d: 'https://images.example.com/a.png' })
    expect(byText.get(big)).toMatch(/^litho-handle:[A-Za-z0-9_-]{43}$/)
    // The caller's document is not changed; one without a large source is returned as it is.
    expect(JSON.stringify(original)).toBe(before)
    const plain = resolveDocument({ version: 2, width: 10, height: 10, components: [{ type: 'image', key: 'c', width: 10, height: 10, src: small }] })
    expect(toHandles(plain).resolved).toBe(plain)
  })

  it('handles › a worker puts the texts back, from what it was sent or kept, and says when it lacks one', () => {
    const store = createSourceStore()
    const { resolved: light, texts } = toHandles(resolved())
    const handles = [...texts.keys()]
    const posted = () => structuredClone(light)

    const missing = posted()
    expect(store.restore(missing, handles)).toBe(false)
    expect(missing).toEqual(light)

    const sent = posted()
    expect(store.restore(sent, handles, Object.fromEntries(texts))).toBe(true)
    expect(sent).toEqual(resolved())

    const kept = posted()
    expect(store.restore(kept, handles)).toBe(true)
    expect(kept).toEqual(resolved())
  })

  it('handles › only the handles the pool listed are replaced', () => {
    const store = createSourceStore()
    const { resolved: light, texts } = toHandles(resolved())
    const [first] = texts.keys()
    store.restore(structuredClone(light), [...texts.keys()], Object.fromEntries(texts))
    const unlisted = structuredClone(light)
    expect(store.restore(unlisted, [])).toBe(true)
    expect(JSON.stringify(unlisted)).toContain(first!)
  })

  it('handles › texts that differ only in a lone surrogate get different handles', () => {
    const withTail = (tail: string) =>
      resolveDocument({ version: 2, width: 10, height: 10, components: [{ type: 'image', key: 'a', width: 10, height: 10, src: `data:image/svg+xml,${'a'.repeat(HANDLE_MIN_CHARS)}${tail}` }] })
    const [first] = toHandles(withTail('\uD800')).texts.keys()
    const [second] = toHandles(withTail('\uDBFF')).texts.keys()
    expect(first).toMatch(/^litho-handle:/)
    expect(second).not.toBe(first)
  })

  it('handles › a document of the wrong shape is posted as it is', () => {
    const odd = { document: { components: 'nope' } } as unknown as ResolvedDocument
    expect(toHandles(odd)).toEqual({ resolved: odd, texts: new Map() })
  })
})
