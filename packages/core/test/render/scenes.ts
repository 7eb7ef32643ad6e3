/**
 * Golden scenes: small designs that together exercise every component type and field.
 * Each one is rendered to PNG and compared with test/render/goldens/<name>.png.
 */
import sharp from 'sharp'
import type { DesignDocumentInput } from '../../src/index.js'
import { syntheticPhotoDataUri } from '../../../testing/src/index.js'

/** A 120x120 transparent PNG with a red disc, to show alpha and contain. */
async function logo(): Promise<string> {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120"><circle cx="60" cy="60" r="50" fill="#e11d48"/><rect x="40" y="40" width="40" height="40" fill="#fff"/></svg>'
  return `data:image/png;base64,${(await sharp(Buffer.from(svg)).png().toBuffer()).toString('base64')}`
}

/** Every scene by name. */
export async function scenes(): Promise<Record<string, { design: DesignDocumentInput; options?: { variation?: string; overrides?: Record<string, unknown> } }>> {
  const photo = await syntheticPhotoDataUri(800, 600)
  const mark = await logo()
  const W = 600
  const H = 400
  const lorem = 'The quick brown fox jumps over the lazy dog while the five boxing wizards jump quickly.'
  return {
    'text-align': {
      design: {
        version: 2, width: W, height: H, background: '#ffffff',
        components: [
          ...(['left', 'center', 'right', 'justify'] as const).map((align, i) => ({
            type: 'text' as const, key: `t${i}`, x: 20 + (i % 2) * 290, y: 20 + Math.floor(i / 2) * 190, width: 270, height: 170,
            text: `${align}: ${lorem}`, fontSize: 20, align, border: { color: '#94a3b8', width: 1 },
            verticalAlign: (['top', 'middle', 'bottom', 'middle'] as const)[i],
          })),
        ],
      },
    },
    'text-style': {
      design: {
        version: 2, width: W, height: H, background: '#f1f5f9',
        components: [
          { type: 'text', key: 'serif', x: 20, y: 20, width: 560, height: 50, text: 'Noto Serif, italic bold', fontFamily: 'serif', fontWeight: 'bold', fontStyle: 'italic', fontSize: 36 },
          { type: 'text', key: 'mono', x: 20, y: 80, width: 560, height: 40, text: 'monospace { letterSpacing: 4 }', fontFamily: 'monospace', fontSize: 24, letterSpacing: 4, color: '#0f766e' },
          { type: 'text', key: 'upper', x: 20, y: 130, width: 560, height: 40, text: 'uppercase with light weight', textTransform: 'uppercase', fontWeight: 300, fontSize: 28 },
          { type: 'text', key: 'stroke', x: 20, y: 180, width: 560, height: 70, text: 'Stroke + shadow', fontSize: 56, fontWeight: 900, color: '#facc15', stroke: { color: '#1e293b', width: 3 }, shadow: { x: 4, y: 4, blur: 6, color: 'rgba(0,0,0,0.45)' } },
          { type: 'text', key: 'pill', x: 20, y: 270, width: 300, height: 60, text: 'Background + padding', fontSize: 22, color: '#ffffff', background: { type: 'linear', angle: 90, stops: [{ offset: 0, color: '#7c3aed' }, { offset: 1, color: '#db2777' }] }, padding: { top: 16, right: 20, bottom: 16, left: 20 }, radius: 30, verticalAlign: 'middle', align: 'center' },
          { type: 'text', key: 'tall', x: 340, y: 260, width: 240, height: 120, text: 'lineHeight 2 spreads these lines apart', fontSize: 20, lineHeight: 2, border: { color: '#cbd5e1', width: 1 } },
        ],
      },
    },
    'text-fit': {
      design: {
        version: 2, width: W, height: H, background: '#ffffff',
        components: [
          { type: 'text', key: 'clamp', x: 20, y: 20, width: 270, height: 110, text: lorem, fontSize: 26, maxLines: 3, border: { color: '#f97316', width: 1 } },
          { type: 'text', key: 'fit', x: 310, y: 20, width: 270, height: 110, text: lorem, fontSize: 60, autoFit: { min: 10 }, border: { color: '#16a34a', width: 1 } },
          { type: 'text', key: 'fitword', x: 20, y: 150, width: 560, height: 90, text: 'Supercalifragilisticexpialidocious', fontSize: 90, fontWeight: 800, autoFit: { min: 12 }, verticalAlign: 'middle', border: { color: '#16a34a', width: 1 } },
          { type: 'text', key: 'floor', x: 20, y: 260, width: 560, height: 40, text: `${lorem} ${lorem}`, fontSize: 30, autoFit: { min: 18 }, maxLines: 1, border: { color: '#dc2626', width: 1 } },
          { type: 'text', key: 'lines', x: 20, y: 320, width: 560, height: 60, text: 'First line\nSecond line after a newline', fontSize: 22 },
        ],
      },
    },
    'text-scripts': {
      design: {
        version: 2, width: W, height: H, background: '#ffffff',
        components: [
          { type: 'text', key: 'emoji', x: 20, y: 15, width: 560, height: 50, text: 'Emoji 🎉 👍🏽 👨‍👩‍👧 🇯🇵 ❤️', fontSize: 32 },
          { type: 'text', key: 'arabic', x: 20, y: 75, width: 560, height: 50, text: 'مرحبا بالعالم — خصم ٥٠٪', fontSize: 32, align: 'right' },
          { type: 'text', key: 'hebrew', x: 20, y: 135, width: 560, height: 50, text: 'שלום עולם, מבצע היום', fontSize: 32, align: 'right' },
          { type: 'text', key: 'ja', x: 20, y: 195, width: 560, height: 50, text: '日本語のテキスト、こんにちは', fontSize: 32 },
          { type: 'text', key: 'zh', x: 20, y: 255, width: 560, height: 50, text: '简体中文文本，你好世界', fontSize: 32, fontWeight: 700 },
          { type: 'text', key: 'ko', x: 20, y: 315, width: 560, height: 50, text: '한국어 텍스트 안녕하세요 — Ελληνικά, Кириллица', fontSize: 28 },
        ],
      },
    },
    'images': {
      design: {
        version: 2, width: W, height: H, background: '#e2e8f0',
        components: [
          { type: 'image', key: 'cover', x: 20, y: 20, width: 170, height: 170, src: photo, fit: 'cover' },
          { type: 'image', key: 'focusL', x: 210, y: 20, width: 80, height: 170, src: photo, fit: 'cover', focus: { x: 0, y: 0.5 } },
          { type: 'image', key: 'focusR', x: 300, y: 20, width: 80, height: 170, src: photo, fit: 'cover', focus: { x: 1, y: 0.5 } },
          { type: 'image', key: 'contain', x: 400, y: 20, width: 180, height: 170, src: photo, fit: 'contain', radius: 16, border: { color: '#0f172a', width: 2 } },
          { type: 'image', key: 'fill', x: 20, y: 210, width: 170, height: 170, src: photo, fit: 'fill', radius: 85 },
          { type: 'image', key: 'corners', x: 210, y: 210, width: 170, height: 170, src: photo, radius: { topLeft: 60, topRight: 0, bottomRight: 60, bottomLeft: 0 }, border: { color: '#ffffff', width: 6 } },
          { type: 'image', key: 'alpha', x: 400, y: 210, width: 180, height: 170, src: mark, fit: 'contain' },
        ],
      },
    },
    'shapes': {
      design: {
        version: 2, width: W, height: H, background: '#ffffff',
        components: [
          { type: 'shape', key: 'rect', x: 20, y: 20, width: 160, height: 100, fill: '#3b82f6' },
          { type: 'shape', key: 'round', x: 200, y: 20, width: 160, height: 100, fill: '#fde047', radius: 24, stroke: { color: '#a16207', width: 4 } },
          { type: 'shape', key: 'dashed', x: 380, y: 20, width: 200, height: 100, stroke: { color: '#dc2626', width: 3, style: 'dashed' }, radius: { topLeft: 0, topRight: 30, bottomRight: 0, bottomLeft: 30 } },
          { type: 'shape', key: 'ellipse', x: 20, y: 140, width: 160, height: 100, shape: 'ellipse', fill: { type: 'radial', center: { x: 0.3, y: 0.3 }, stops: [{ offset: 0, color: '#ffffff' }, { offset: 1, color: '#16a34a' }] } },
          { type: 'shape', key: 'linear', x: 200, y: 140, width: 380, height: 100, fill: { type: 'linear', angle: 45, stops: [{ offset: 0, color: '#0ea5e9' }, { offset: 0.5, color: '#a855f7' }, { offset: 1, color: '#f43f5e' }] }, radius: 12 },
          { type: 'shape', key: 'line', x: 20, y: 270, width: 560, height: 20, shape: 'line', stroke: { color: '#111827', width: 4 } },
          { type: 'shape', key: 'dotted', x: 20, y: 300, width: 560, height: 20, shape: 'line', stroke: { color: '#6b7280', width: 4, style: 'dotted' } },
          { type: 'shape', key: 'diag', x: 150, y: 340, width: 300, height: 20, shape: 'line', stroke: { color: '#ea580c', width: 6 }, rotation: -8 },
        ],
      },
    },
    'codes': {
      design: {
        version: 2, width: W, height: H, background: '#ffffff',
        components: [
          { type: 'qrcode', key: 'qr', x: 20, y: 20, width: 160, height: 160, value: 'https://example.com/litho' },
          { type: 'qrcode', key: 'qrColor', x: 200, y: 20, width: 160, height: 200, value: 'Litho QR H', color: '#1e3a8a', background: '#dbeafe', errorCorrection: 'H', margin: 2 },
          { type: 'barcode', key: 'code128', x: 380, y: 20, width: 200, height: 100, value: 'LITHO-128', symbology: 'code128' },
          { type: 'barcode', key: 'ean13', x: 20, y: 240, width: 200, height: 130, value: '5901234123457', symbology: 'ean13' },
          { type: 'barcode', key: 'matrix', x: 240, y: 240, width: 120, height: 120, value: 'Litho DataMatrix', symbology: 'datamatrix', color: '#7c2d12' },
          { type: 'barcode', key: 'upca', x: 380, y: 240, width: 200, height: 130, value: '03600029145', symbology: 'upca', showText: false, color: '#065f46' },
        ],
      },
    },
    'groups': {
      design: {
        version: 2, width: W, height: H, background: '#f8fafc',
        components: [
          {
            type: 'group', key: 'row', x: 20, y: 20, width: 560, height: 100, background: '#e0e7ff', radius: 12,
            layout: { direction: 'row', gap: 12, align: 'center', justify: 'space-between', padding: 16 },
            children: [
              { type: 'shape', key: 'r1', width: 60, height: 60, fill: '#4f46e5', radius: 30 },
              { type: 'text', key: 'r2', width: 200, height: 40, text: 'Auto-layout row', fontSize: 24, fontWeight: 700, verticalAlign: 'middle' },
              { type: 'shape', key: 'hidden', width: 60, height: 60, fill: '#ef4444', visible: false },
              { type: 'text', key: 'r3', width: 120, height: 40, text: '$49.00', fontSize: 24, align: 'right', color: '#4338ca', verticalAlign: 'middle' },
            ],
          },
          {
            type: 'group', key: 'col', x: 20, y: 140, width: 200, height: 240, background: '#fef3c7',
            layout: { direction: 'column', gap: 8, align: 'stretch', justify: 'center', padding: { top: 10, right: 10, bottom: 10, left: 10 } },
            children: [
              { type: 'shape', key: 'c1', width: 180, height: 40, fill: '#f59e0b' },
              { type: 'shape', key: 'c2', width: 120, height: 40, fill: '#d97706' },
              { type: 'shape', key: 'c3', width: 60, height: 40, fill: '#b45309' },
            ],
          },
          {
            type: 'group', key: 'abs', x: 240, y: 140, width: 340, height: 240, clip: true, border: { color: '#0f172a', width: 2 },
            children: [
              { type: 'shape', key: 'a1', x: -40, y: -40, width: 160, height: 160, shape: 'ellipse', fill: '#22c55e', opacity: 0.6 },
              { type: 'text', key: 'a2', x: 60, y: 90, width: 240, height: 60, text: 'Rotated 15°', fontSize: 32, rotation: 15, color: '#0f172a' },
              { type: 'shape', key: 'a3', x: 240, y: 160, width: 160, height: 120, fill: '#0ea5e9', opacity: 0.5 },
            ],
          },
        ],
      },
    },
    'text-hug': {
      design: {
        version: 2, width: W, height: H, background: '#f8fafc',
        components: [
          // The same card twice: a title of one line lets the rest move up; one of three pushes it down.
          ...(['Short title', 'A much longer title that needs three lines'] as const).map((title, i) => ({
            type: 'group' as const, key: `card${i}`, x: 20 + i * 290, y: 20, width: 270, height: 360, background: '#ffffff', radius: 12, border: { color: '#cbd5e1', width: 1 },
            layout: { direction: 'column' as const, gap: 10, align: 'stretch' as const, padding: 16 },
            children: [
              { type: 'text' as const, key: `title${i}`, width: 236, height: 'auto' as const, text: title, fontSize: 30, fontWeight: 700, background: '#e0e7ff' },
              { type: 'text' as const, key: `body${i}`, width: 236, height: 'auto' as const, text: 'Hugs its lines, as auto-layout does in Figma.', fontSize: 18, color: '#475569', background: '#fef3c7', padding: 4 },
              { type: 'shape' as const, key: `button${i}`, width: 236, height: 44, fill: '#4f46e5', radius: 22 },
            ],
          })),
        ],
      },
    },
    'variation-scaled': {
      design: {
        version: 2, width: 400, height: 300, background: { type: 'linear', angle: 90, stops: [{ offset: 0, color: '#fb7185' }, { offset: 1, color: '#6366f1' }] },
        components: [
          { type: 'image', key: 'photo', x: 20, y: 20, width: 200, height: 150, src: photo, radius: 20 },
          { type: 'text', key: 'title', x: 20, y: 190, width: 360, height: 90, text: 'Scaled to fit, centred', fontSize: 34, fontWeight: 700, color: '#ffffff' },
          { type: 'qrcode', key: 'qr', x: 250, y: 20, width: 130, height: 130, value: 'scaled' },
        ],
        variations: [{ id: 'square', name: 'Square', width: 300, height: 300 }],
      },
      options: { variation: 'square' },
    },
    'variation-patched': {
      design: {
        version: 2, width: 400, height: 300, background: '#0f172a',
        components: [
          { type: 'text', key: 'title', x: 20, y: 20, width: 360, height: 60, text: 'Patched variation', fontSize: 30, color: '#f8fafc' },
          { type: 'shape', key: 'bar', x: 20, y: 100, width: 360, height: 20, fill: '#38bdf8' },
        ],
        variations: [{ id: 'tall', width: 300, height: 500, components: { title: { width: 260, height: 120, fontSize: 36 }, bar: { y: 400, width: 260 } } }],
      },
      options: { variation: 'tall' },
    },
    'overrides': {
      design: {
        version: 2, width: 400, height: 200, background: '#ffffff',
        components: [
          { type: 'text', key: 'title', x: 20, y: 20, width: 360, height: 60, text: 'Original', fontSize: 36, dynamic: ['text', 'color', 'fontSize'] },
          { type: 'shape', key: 'swatch', x: 20, y: 110, width: 360, height: 70, fill: '#94a3b8' },
        ],
      },
      options: { overrides: { 'title.text': 'Overridden ✓', 'title.color': '#16a34a', swatch: { fill: { type: 'linear', angle: 90, stops: [{ offset: 0, color: '#f97316' }, { offset: 1, color: '#eab308' }] } } } },
    },
  }
}
