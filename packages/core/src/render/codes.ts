/**
 * QR codes (the `qrcode` package) and barcodes (`bwip-js`) as vector SVG documents,
 * which satori embeds as images and resvg and the PDF writer draw as vectors.
 *
 * @module render/codes
 */
// The encoder alone: the package's main entry also loads its PNG (pngjs), terminal and UTF-8 renderers.
import { create as createQrCode } from 'qrcode/lib/core/qrcode.js'
import { LithoError } from '../errors.js'
import { LRUCache } from 'lru-cache'
import { describeReceived, type BarcodeComponent, type QrCodeComponent } from '../design/schema.js'

/** An SVG document with its natural size. */
export interface VectorCode {
  svg: string
  width: number
  height: number
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
}

// Codes are pure functions of their inputs and cheap to keep: 512 entries of a few KB each.
const cache = new LRUCache<string, VectorCode>({ max: 512, maxSize: 16 * 1024 * 1024, sizeCalculation: (c) => Math.max(1, c.svg.length) })

/**
 * The QR code of `component` as an SVG whose units are modules: one path of merged
 * horizontal runs, so a 25x25 code is a few hundred path commands, not 625 rects.
 */
export function qrCodeSvg(component: Pick<QrCodeComponent, 'key' | 'value' | 'color' | 'background' | 'errorCorrection' | 'margin'>): VectorCode {
  const cacheKey = JSON.stringify(['qr', component.value, component.color, component.background, component.errorCorrection, component.margin])
  const hit = cache.get(cacheKey)
  if (hit) return hit
  let qr: ReturnType<typeof createQrCode>
  try {
    qr = createQrCode(component.value, { errorCorrectionLevel: component.errorCorrection })
  } catch (error) {
    // Bad input, not a failed render: prepareCodes names the field (and whether an override set it).
    throw new LithoError('ERR_INVALID_DESIGN', `expected a value a QR code can hold with error correction ${component.errorCorrection}: ${(error as Error).message}`, { cause: error })
  }
  const n = qr.modules.size
  const m = component.margin
  const size = n + 2 * m
  let d = ''
  for (let y = 0; y < n; y++) {
    let x = 0
    while (x < n) {
      if (!qr.modules.get(y, x)) {
        x++
        continue
      }
      const start = x
      while (x < n && qr.modules.get(y, x)) x++
      d += `M${start + m} ${y + m}h${x - start}v1h${start - x}z`
    }
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="${escapeAttr(component.background)}"/>` +
    `<path d="${d}" fill="${escapeAttr(component.color)}"/></svg>`
  const code = { svg, width: size, height: size }
  cache.set(cacheKey, code)
  return code
}

const TWO_D = new Set(['datamatrix', 'pdf417', 'qrcode'])
// bwip-js takes colours as hex; we draw with two sentinel colours and substitute the
// component's CSS colours afterwards, so any CSS colour works.
const BAR = '010203'
const BG = 'fefdfc'

type BwipJs = typeof import('bwip-js/node')
let bwipjs: BwipJs | undefined
let loadingBwip: Promise<BwipJs> | undefined

/**
 * Loads bwip-js, once, for the documents that have a barcode: its 2 MB of PostScript-derived
 * code took ~40 ms to compile on every first render, barcode or not (docs/performance.md,
 * "Cold start"). {@link barcodeSvg} needs it loaded; layout-pass awaits this first.
 *
 * @example if (components.some((c) => c.type === 'barcode')) await loadBarcodeEncoder()
 */
export async function loadBarcodeEncoder(): Promise<void> {
  loadingBwip ??= import('bwip-js/node').then((module) => (bwipjs = module.default))
  await loadingBwip
}

function bwipSvg(component: Pick<BarcodeComponent, 'key' | 'value' | 'symbology' | 'showText'>, height?: number): string {
  if (!bwipjs) throw new Error('bwip-js is not loaded: await loadBarcodeEncoder() before barcodeSvg()')
  try {
    return bwipjs.toSVG({
      bcid: component.symbology,
      text: component.value,
      includetext: component.showText && !TWO_D.has(component.symbology),
      textxalign: 'center',
      barcolor: BAR,
      textcolor: BAR,
      backgroundcolor: BG,
      ...(height === undefined ? {} : { height }),
    })
  } catch (error) {
    // bwip-js errors read like "bwipp.ean13badLength: EAN-13 must be 12 or 13 digits".
    const reason = String((error as Error).message ?? error).replace(/^bwipp\.\w+:\s*/, '')
    throw new LithoError('ERR_INVALID_DESIGN', `expected a value ${component.symbology} can encode, received ${describeReceived(component.value)}: ${reason}`, { cause: error })
  }
}

function viewBoxOf(svg: string): { width: number; height: number } {
  const m = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg)
  return { width: Number(m?.[1] ?? 1), height: Number(m?.[2] ?? 1) }
}

/**
 * The barcode of `component` as an SVG ({@link loadBarcodeEncoder} must have settled). Linear codes get a bar height chosen so that the
 * whole code has the aspect ratio of the box (bars fill it, digits are not stretched);
 * 2D codes keep their own aspect ratio and are centred by the caller.
 */
export function barcodeSvg(component: Pick<BarcodeComponent, 'key' | 'value' | 'symbology' | 'showText' | 'color' | 'background' | 'width' | 'height'>): VectorCode {
  const aspect = component.width / Math.max(component.height, 1e-6)
  const cacheKey = JSON.stringify(['bar', component.value, component.symbology, component.showText, component.color, component.background, TWO_D.has(component.symbology) ? 0 : aspect.toFixed(3)])
  const hit = cache.get(cacheKey)
  if (hit) return hit
  let svg = bwipSvg(component)
  if (!TWO_D.has(component.symbology)) {
    // The SVG height is linear in bwip's bar height (mm): measure two and solve for the aspect.
    const a = viewBoxOf(bwipSvg(component, 10))
    const b = viewBoxOf(bwipSvg(component, 20))
    const perMm = (b.height - a.height) / 10
    const wanted = a.width / aspect
    const mm = 10 + (wanted - a.height) / perMm
    svg = bwipSvg(component, Math.min(Math.max(mm, 2), 500))
  }
  const box = viewBoxOf(svg)
  svg = svg
    .replace('<svg ', `<svg width="${box.width}" height="${box.height}" preserveAspectRatio="none" `)
    .replaceAll(`#${BAR}`, escapeAttr(component.color))
    .replaceAll(`#${BG}`, escapeAttr(component.background))
  const code = { svg, ...box }
  cache.set(cacheKey, code)
  return code
}

/** A base64 `data:image/svg+xml` URI of an SVG document. */
export function svgDataUri(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
}
