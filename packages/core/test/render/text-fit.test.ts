// autoFit against the drawing itself: the size it picks is laid out by the same satori pass the
// render uses, but with embedFont off, so the SVG keeps every drawn piece of text as a <text>
// (and every emoji as an <image>) with its position. From those pieces the test rebuilds the
// drawn lines and judges, independently of fit-text, whether the text fits its box: no line
// below the box, no piece past its right edge, no Latin word split across two lines.
import satori from 'satori'
import { describe, expect, it } from 'vitest'
import type { DesignDocumentInput } from '../../src/index.js'
import { resolveDocument } from '../../src/render/resolve-document.js'
import { prepareDocument } from '../../src/render/layout-pass.js'
import { createRenderContext } from '../../src/render/renderer.js'
import { buildTree } from '../../src/render/build-tree.js'

const context = createRenderContext()
const BOX = { x: 20, y: 20, width: 400, height: 130 }
const LINE_HEIGHT = 1.2

function design(text: string, fontSize: number, min?: number, box = BOX): DesignDocumentInput {
  return {
    version: 2,
    width: 600,
    height: 300,
    background: '#ffffff',
    components: [{ type: 'text', key: 't', ...box, text, fontSize, lineHeight: LINE_HEIGHT, ...(min === undefined ? {} : { autoFit: { min } }) }],
  }
}

interface Piece { line: number; left: number; right: number; text: string }

const attr = (tag: string, name: string): number => Number(tag.split(` ${name}="`)[1]?.split('"')[0])

/** The drawn pieces of the text at the size the render would use, by line. */
async function drawn(doc: DesignDocumentInput, box = BOX) {
  const resolved = resolveDocument(doc)
  const prepared = await prepareDocument(resolved, context)
  const size = prepared.fittedSizes.get('t') ?? (resolved.document.components[0] as { fontSize: number }).fontSize
  const tree = buildTree(
    resolved.document.components,
    { width: 600, height: 300, layoutWidth: 600, layoutHeight: 300, scale: 1, offsetX: 0, offsetY: 0, background: undefined },
    { familyFor: prepared.fonts.familyFor, images: new Map(), codes: new Map(), fittedSizes: prepared.fittedSizes },
  )
  const svg = await satori(tree as never, { width: 600, height: 300, fonts: prepared.fonts.fonts, loadAdditionalAsset: prepared.fonts.loadAdditionalAsset, embedFont: false })
  const lineHeight = Math.round(size * LINE_HEIGHT)
  const pieces: Piece[] = []
  for (const part of svg.split('<').slice(1)) {
    const isText = part.startsWith('text ')
    if (!isText && !part.startsWith('image ')) continue
    const x = attr(part, 'x')
    const y = attr(part, 'y')
    const width = attr(part, 'width')
    // A text's y is its baseline, an emoji's its top: either way, inside its line.
    const inside = isText ? y : y + attr(part, 'height') / 2
    pieces.push({ line: Math.floor((inside - box.y) / lineHeight), left: x, right: x + width, text: isText ? part.slice(part.indexOf('>') + 1) : '🖼' })
  }
  const lines: string[] = []
  for (const piece of pieces) lines[piece.line] = (lines[piece.line] ?? '') + piece.text
  return { size, pieces, lines: lines.map((l) => l ?? ''), lineHeight, warnings: prepared.warnings.map((w) => w.code) }
}

const WORD = /[\p{Script=Latin}\p{Nd}]/u

/** Whether the drawing fits the box, judged from the drawn pieces alone. */
function fitsDrawn(d: Awaited<ReturnType<typeof drawn>>, box = BOX): boolean {
  const below = d.lines.length * d.lineHeight > box.height + 0.5
  const past = d.pieces.some((p) => p.right > box.x + box.width + 0.5)
  const split = d.lines.some((line, i) => {
    const next = d.lines[i + 1]
    return next !== undefined && WORD.test(line.trimEnd().slice(-1)) && WORD.test(next.trimStart().charAt(0))
  })
  return !below && !past && !split
}

const TEXTS = {
  hyphen: 'Oyelaran-Featherstonehaugh',
  'soft hyphen': 'Donau\u00addampf\u00adschiff\u00adfahrts\u00adgesellschaft',
  'URL slashes': 'https://example.com/speakers/oyelaran/featherstonehaugh',
  CJK: '東京都渋谷区神宮前一丁目二十三番地',
  emoji: 'Party🎉🎈🎊🥳🎂🎁🎆🎇✨🎀🪅🎉🎈🎊',
}

describe('autoFit against the drawn text', () => {
  for (const [name, text] of Object.entries(TEXTS)) {
    it(`text fit › ${name}: the chosen size fits as drawn and one pixel more does not`, async () => {
      const fitted = await drawn(design(text, 90, 8))
      expect(fitsDrawn(fitted), fitted.lines.join(' | ')).toBe(true)
      expect(fitted.warnings).not.toContain('text_overflow')
      expect(fitted.size).toBeLessThan(90)
      expect(fitted.warnings).toContain('text_shrunk')
      const larger = await drawn(design(text, fitted.size + 1))
      expect(fitsDrawn(larger), larger.lines.join(' | ')).toBe(false)
    })
  }

  it('text fit › a hyphenated name keeps the size at which its two halves fit (not shrunk as one word)', async () => {
    const fitted = await drawn(design(TEXTS.hyphen, 60, 12))
    expect(fitted.lines).toEqual(['Oyelaran-', 'Featherstonehaugh'])
    expect(fitted.size).toBeGreaterThan(40)
  })

  it('text fit › text_overflow is given at a size exactly when the drawn text does not fit there', async () => {
    const disagreements: string[] = []
    for (const [name, text] of Object.entries(TEXTS)) {
      for (let size = 20; size <= 80; size += 3) {
        // autoFit with min = fontSize measures that one size and warns if it does not fit.
        const d = await drawn(design(text, size, size))
        if (fitsDrawn(d) === d.warnings.includes('text_overflow')) disagreements.push(`${name} @${size}px: ${d.lines.join(' | ')} (${d.warnings.join(', ')})`)
      }
    }
    expect(disagreements).toEqual([])
  })

  it('text fit › a word too long for the box even at the minimum is reported, and drawn broken', async () => {
    const d = await drawn(design('Supercalifragilisticexpialidocious', 90, 40))
    expect(d.size).toBe(40)
    expect(fitsDrawn(d)).toBe(false)
    expect(d.warnings).toContain('text_overflow')
  })
})

describe('autoFit with height "auto"', () => {
  const card = (text: string): DesignDocumentInput => ({
    version: 2, width: 600, height: 300,
    components: [{ type: 'group', key: 'g', x: 0, y: 0, width: 600, height: 300, layout: { direction: 'column' }, children: [
      { type: 'text', key: 't', width: 300, height: 'auto', text, fontSize: 90, autoFit: { min: 8 } },
    ] }],
  })
  const fit = async (text: string) => {
    const prepared = await prepareDocument(resolveDocument(card(text)), context)
    return { size: prepared.fittedSizes.get('t'), warnings: prepared.warnings.map((w) => w.code) }
  }

  it('text fit › any number of lines fits: the size stays unless a word would have to split', async () => {
    expect(await fit('many short words that wrap onto many lines')).toEqual({ size: 90, warnings: [] })
    const long = await fit('Supercalifragilisticexpialidocious')
    expect(long.size).toBeLessThan(40)
    expect(long.warnings).toEqual(['text_shrunk'])
  })
})
