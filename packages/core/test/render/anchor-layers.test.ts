// resvg 2.6.2 aborts the whole process (an uncatchable Rust panic in geom.rs:27) on a layer
// whose content lies wholly outside four times the canvas, or outside it relative to a
// clamped parent layer. Each render runs in a child process so that a regression fails the
// test instead of killing the vitest run.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { Resvg } from '@resvg/resvg-js'
import { anchorLayers, needsAnchors } from '../../src/render/anchor-layers.js'
import { LithoError, render } from '../../src/index.js'

const child = fileURLToPath(new URL('./_resvg-child.ts', import.meta.url))

function renderInChild(svg: string, mode: 'raw' | 'rasterize' = 'raw'): { status: number | null; stderr: string; result?: { width: number; height: number; png: number } } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', child, mode], { input: svg, encoding: 'utf8', timeout: 60_000 })
  return { status: run.status, stderr: run.stderr, result: run.status === 0 ? JSON.parse(run.stdout) : undefined }
}

const svg = (width: number, height: number, body: string): string =>
  `<svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" xmlns="http://www.w3.org/2000/svg">${body}</svg>`

describe('anchorLayers', () => {
  it('render › a translucent group 250 px below a 93x19 canvas (reduced from a fuzz case) renders instead of aborting the process', () => {
    const run = renderInChild(svg(93, 19, '<g opacity="0.5"><g><path d="M120,270H130V276H120Z"/></g></g>'))
    expect(run.stderr).not.toMatch(/panicked/)
    expect(run.status).toBe(0)
    expect(run.result).toMatchObject({ width: 93, height: 19 })
  })

  it('render › a clipped path under a rotated translucent layer that reaches far above a 1198x10 canvas renders instead of aborting the process', () => {
    // The outer layer is clamped at y = -20; the inner one, on the canvas, is then 20+ px
    // down its parent layer, outside resvg's band: the "partly on the canvas" abort.
    const body =
      '<clipPath id="c"><rect x="700" y="-300" width="400" height="400"/></clipPath>' +
      '<g opacity="0.5"><path d="M736,-200h300v30h-300z" fill="red"/><g clip-path="url(#c)"><path d="M736,4h300v4h-300z" fill="blue"/></g></g>'
    const run = renderInChild(svg(1198, 10, body))
    expect(run.stderr).not.toMatch(/panicked/)
    expect(run.status).toBe(0)
    expect(run.result).toMatchObject({ width: 1198, height: 10 })
  })

  it('render › a masked leaf element 500 px right of the canvas under a rotation gets a wrapping group with the anchor', () => {
    const out = anchorLayers(svg(50, 50, '<path d="M550 10h5v5z" mask="url(#m)" transform="rotate(90 25 25)"/>'))
    expect(out).toContain('<g mask="url(#m)" transform="rotate(90 25 25)"><rect x="0" y="50" width="1" height="1" fill-opacity="0"/><path d="M550 10h5v5z"/></g>')
  })

  it('render › a layer under scale(0) paints nothing and is dropped', () => {
    const out = anchorLayers(svg(50, 50, '<g transform="scale(0)"><g opacity="0.5"><rect width="9" height="9"/></g></g>'))
    expect(out).not.toContain('opacity')
  })

  it('render › clip-path content gets no anchor (it would widen the clip)', () => {
    const input = svg(50, 50, '<clipPath id="c"><path d="M0 0h5v5z" clip-path="url(#d)"/></clipPath>')
    expect(anchorLayers(input)).toBe(input)
  })

  it('render › a translucent square 500 px below a 200x200 canvas goes through rasterize without aborting the process', () => {
    const run = renderInChild(svg(200, 200, '<g opacity="0.5"><path d="M20,500h5v5h-5z"/></g>'), 'rasterize')
    expect(run.stderr).not.toMatch(/panicked/)
    expect(run.status).toBe(0)
    expect(run.result).toMatchObject({ width: 200, height: 200 })
  })

  it('needsAnchors › only SVGs that can meet the abort pay for anchors', () => {
    const check = (body: string, width = 200, height = 200): boolean => {
      const text = svg(width, height, body)
      return needsAnchors(text, new Resvg(text).getBBox(), width, height)
    }
    // An ordinary card: everything painted on the canvas, layers included.
    expect(check('<rect width="200" height="200" fill="#123"/><g opacity="0.5" clip-path="url(#c)"><rect x="20" y="20" width="160" height="90"/></g><clipPath id="c"><rect x="20" y="20" width="160" height="90" rx="12"/></clipPath>')).toBe(false)
    // Far off the canvas, a filter or mask anywhere, a tiny canvas, or nothing at all visible.
    expect(check('<g opacity="0.5"><rect x="20" y="300" width="5" height="5"/></g>')).toBe(true)
    expect(check('<g opacity="0.5"><rect x="-80" y="20" width="5" height="5"/></g>')).toBe(true)
    // A shadow as satori writes it, on the canvas: no anchors. A region far beyond its element,
    // one in user space, or a filtered design that reaches off the canvas: anchors.
    const shadow = (x: number, region = 'x="-7.75%" y="-6.40%" width="137.89%" height="133.02%"') => `<filter id="f" ${region}><feGaussianBlur stdDeviation="2"/></filter><rect x="${x}" width="9" height="9" filter="url(#f)"/>`
    expect(check(shadow(20))).toBe(false)
    expect(check(shadow(20, 'x="-500%" y="-10%" width="1100%" height="120%"'))).toBe(true)
    expect(check(shadow(20, 'filterUnits="userSpaceOnUse" x="-900" y="0" width="2000" height="9"'))).toBe(true)
    expect(check(shadow(-5))).toBe(true)
    // satori masks every card (its overflow mask): masks alone do not make an SVG risky.
    expect(check('<mask id="m"><rect width="9" height="9" fill="#fff"/></mask><rect width="9" height="9" mask="url(#m)"/>')).toBe(false)
    expect(check('<rect width="9" height="9"/>', 63, 200)).toBe(true)
    expect(check('<g transform="scale(0)"><g opacity="0.5"><rect width="9" height="9"/></g></g>')).toBe(false)
  })

  it('render › nested masks of rotated groups on a 5x8 canvas (FUZZ_SEED=42), which abort resvg even with anchors, are refused or drawn and the process lives on', async () => {
    const c = JSON.parse(readFileSync(fileURLToPath(new URL('./fixtures/resvg-abort-seed42.json', import.meta.url)), 'utf8'))
    const outcome = await render(c.raw, { format: 'png', overrides: c.overrides }).then(
      (result) => ({ ok: true as const, bytes: result.bytes.length }),
      (error: unknown) => ({ ok: false as const, error }),
    )
    if (!outcome.ok) {
      expect(LithoError.isInstance(outcome.error) && outcome.error.code).toBe('ERR_INVALID_DESIGN')
      expect((outcome.error as LithoError).issues[0]?.path).toBe('components')
    }
    // This process (the test runner) is still here to check it.
    expect(process.exitCode ?? 0).toBe(0)
  })

  it.each([
    ['a rotated translucent text below a 4x18 canvas', { version: 2, width: 4, height: 18, components: [{ type: 'text', key: 'c0', y: 54, width: 34, height: 54, rotation: -125, opacity: 0.5, background: '#abcd' }] }],
    ['a rotated row group pushing a stroked shape off a 64x9 canvas', { version: 2, width: 64, height: 9, components: [{ type: 'group', key: 'c2', width: 36, height: 61, rotation: -246, layout: { direction: 'row', gap: 39, align: 'center', padding: 7, wrap: false }, children: [{ type: 'shape', key: 'c4', width: 53, height: 15 }, { type: 'shape', key: 'c5', width: 56, height: 49, stroke: { color: '#abcd', width: 10, style: 'solid' } }] }] }],
  ])('render › %s (found by the HTTP fuzz) renders in every raster format instead of aborting the process', async (_name, design) => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const { bytes } = await render(design as never, { format })
      expect(bytes.length).toBeGreaterThan(0)
    }
  })
})
