/**
 * The examples of the design guide: the pieces of one product card, each per-type example a
 * component of it, and the whole card with its variations. Tests validate and render them.
 *
 * @module design/guide-examples
 */
import type { ComponentInput, ComponentType, DesignDocumentInput } from './schema.js'

// Example assets: tiny PNGs generated once with sharp, inlined so every example renders offline.

/** An 8x8 PNG "product photo" (a dark shape on a warm backdrop). */
const PHOTO_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAmUlEQVQI11XJkRLEIRCA8R7nHuCe4Z5pbS0LsyxbWEqiKEqiJkiCIEgW4ruZo//Mj75P3Ua3+dvcbfY2c5u+DW8DJZWkeqlOqpVqpGqpKBXUKXSKP8W93p+fU/QpeAqonWln/69/O+POoFailR5jJVwJ1Iw042PMiDOCGoFG8CO4EewIZgQ9Ao4AqjN19p1dZ9vZdNadsTN8AdzAeE/IHgn1AAAAAElFTkSuQmCC'
/** A 4x4 PNG two-tone "logo". */
const LOGO_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAHUlEQVQI12P4H2UGQSISagxwFpQDYYE4cJaIhBoArcEMj7FUFScAAAAASUVORK5CYII='

// ---------------------------------------------------------------------------
// Examples: the pieces of one product card. Each per-type example is a component of it.

const CARD = {
  type: 'shape',
  key: 'card',
  name: 'Card',
  x: 60,
  y: 60,
  width: 960,
  height: 960,
  shape: 'rectangle',
  fill: '#ffffff',
  radius: 48,
  border: { color: '#f1d6bd', width: 2 },
  dynamic: [],
} satisfies ComponentInput

const PHOTO = {
  type: 'image',
  key: 'photo',
  name: 'Product photo',
  x: 100,
  y: 100,
  width: 880,
  height: 500,
  src: PHOTO_PNG,
  fit: 'cover',
  focus: { x: 0.5, y: 0.55 },
  radius: 32,
} satisfies ComponentInput

const LOGO = {
  type: 'image',
  key: 'logo',
  x: 130,
  y: 130,
  width: 64,
  height: 64,
  src: LOGO_PNG,
  fit: 'contain',
  radius: 12,
  dynamic: [],
} satisfies ComponentInput

const SALE_BADGE = {
  type: 'shape',
  key: 'sale-badge',
  name: 'Sale badge',
  x: 820,
  y: 70,
  width: 200,
  height: 200,
  shape: 'ellipse',
  fill: {
    type: 'radial',
    center: { x: 0.35, y: 0.3 },
    stops: [
      { offset: 0, color: '#ff8a5c' },
      { offset: 1, color: '#e0361f' },
    ],
  },
  stroke: { color: '#ffffff', width: 6 },
} satisfies ComponentInput

const SALE_LABEL = {
  type: 'text',
  key: 'sale-label',
  x: 820,
  y: 70,
  width: 200,
  height: 200,
  rotation: -12,
  text: '-30%',
  fontSize: 56,
  fontWeight: 800,
  color: '#ffffff',
  align: 'center',
  verticalAlign: 'middle',
  dynamic: ['text', 'visible'],
} satisfies ComponentInput

const TITLE = {
  type: 'text',
  key: 'title',
  name: 'Product title',
  x: 100,
  y: 630,
  width: 880,
  height: 130,
  text: 'Aurora Wireless Headphones',
  fontFamily: 'sans-serif',
  fontSize: 60,
  fontWeight: 700,
  color: '#141826',
  lineHeight: 1.05,
  letterSpacing: -1,
  maxLines: 2,
  autoFit: { min: 36 },
} satisfies ComponentInput

const SUBTITLE = {
  type: 'text',
  key: 'subtitle',
  x: 100,
  y: 768,
  width: 880,
  height: 44,
  text: '40-hour battery · Active noise cancelling',
  fontFamily: 'serif',
  fontSize: 30,
  fontStyle: 'italic',
  color: '#5b6170',
  maxLines: 1,
  dynamic: ['text', 'visible'],
} satisfies ComponentInput

const DIVIDER = {
  type: 'shape',
  key: 'divider',
  x: 100,
  y: 826,
  width: 880,
  height: 4,
  shape: 'line',
  stroke: { color: '#f1d6bd', width: 2, style: 'dashed' },
  dynamic: [],
} satisfies ComponentInput

const PRICE_TAG = {
  type: 'group',
  key: 'price-tag',
  name: 'Price tag',
  x: 100,
  y: 877,
  width: 400,
  height: 96,
  background: '#141826',
  radius: 48,
  layout: { direction: 'row', gap: 16, align: 'center', justify: 'start', padding: { left: 32, right: 32 } },
  children: [
    {
      type: 'text',
      key: 'price',
      width: 170,
      height: 60,
      text: '€129',
      fontSize: 48,
      fontWeight: 'bold',
      color: '#ffffff',
      verticalAlign: 'middle',
      autoFit: { min: 28 },
      dynamic: ['text', 'visible'],
    },
    {
      type: 'text',
      key: 'old-price',
      width: 150,
      height: 40,
      text: 'was €179',
      fontSize: 26,
      color: '#9aa0ad',
      verticalAlign: 'middle',
    },
  ],
} satisfies ComponentInput

const EAN = {
  type: 'barcode',
  key: 'ean',
  x: 540,
  y: 860,
  width: 240,
  height: 130,
  value: '4006381333931',
  symbology: 'ean13',
  color: '#141826',
  background: '#ffffff',
} satisfies ComponentInput

const QR = {
  type: 'qrcode',
  key: 'qr',
  x: 820,
  y: 850,
  width: 150,
  height: 150,
  value: 'https://example.com/p/aurora?utm_source=card',
  color: '#141826',
  background: '#ffffff',
  errorCorrection: 'M',
  margin: 1,
} satisfies ComponentInput

/** One example per component type. */
export const COMPONENT_EXAMPLES: Record<ComponentType, ComponentInput> = {
  text: TITLE,
  image: PHOTO,
  shape: SALE_BADGE,
  qrcode: QR,
  barcode: EAN,
  group: PRICE_TAG,
}

/** The complete example document of the guide. */
export const DOCUMENT_EXAMPLE: DesignDocumentInput = {
  version: 2,
  name: 'Product card',
  width: 1080,
  height: 1080,
  background: {
    type: 'linear',
    angle: 160,
    stops: [
      { offset: 0, color: '#fff7ed' },
      { offset: 1, color: '#fde2c8' },
    ],
  },
  components: [CARD, PHOTO, LOGO, SALE_BADGE, SALE_LABEL, TITLE, SUBTITLE, DIVIDER, PRICE_TAG, EAN, QR] as DesignDocumentInput['components'],
  variations: [
    {
      id: 'story',
      name: 'Story',
      width: 1080,
      height: 1920,
      components: {
        card: { height: 1800 },
        photo: { height: 900 },
        title: { y: 1060, height: 200, fontSize: 84 },
        subtitle: { y: 1280, height: 90, maxLines: 2 },
        divider: { y: 1390 },
        'price-tag': { y: 1450 },
        ean: { x: 100, y: 1610, width: 360, height: 180 },
        qr: { x: 760, y: 1590, width: 220, height: 220 },
      },
    },
    { id: 'thumbnail', name: 'Thumbnail', width: 540, height: 540 },
  ],
}
