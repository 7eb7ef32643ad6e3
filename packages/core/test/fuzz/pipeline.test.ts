// Fuzz: generated design documents and override sets through every pure stage before satori:
// validation, override parsing and application, variations, code encoding and the element tree.
// Each case either gets through or is refused with a coded LithoError whose issues name the
// field; nothing else may escape, nothing may hang, and the input is never mutated.
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { applyOverrides, parseOverrides } from '../../src/design/overrides.js'
import type { Component, DesignDocument } from '../../src/design/schema.js'
import { validateDesign } from '../../src/design/validate-design.js'
import { resolveVariation } from '../../src/design/variations.js'
import { buildTree, innerSize, type PreparedAssets, type SatoriElement } from '../../src/render/build-tree.js'
import { loadBarcodeEncoder } from '../../src/render/codes.js'
import { prepareCodes } from '../../src/render/prepare-codes.js'
import { fuzzedDocument, overrideInput, variationId, PNG_1X1 } from './_arbitraries.js'
import { budget, report } from './_budget.js'
import { refusedOr } from './_refusal.js'

/** Slowest case allowed: far above any real case (a few ms), far below a hang. */
const CASE_LIMIT_MS = 5_000

function visible(list: readonly Component[], out: Component[] = []): Component[] {
  for (const c of list) {
    if (!c.visible) continue
    out.push(c)
    if (c.type === 'group') visible(c.children, out)
  }
  return out
}

/** Assets as render-document prepares them, with stand-ins for fetched images and fonts. */
function assetsFor(components: readonly Component[], codes: PreparedAssets['codes']): PreparedAssets {
  const images = new Map()
  for (const c of components) {
    if (c.type !== 'image' || !c.src) continue
    const inner = innerSize(c)
    if (inner.width >= 1 && inner.height >= 1) images.set(c.key, { dataUri: PNG_1X1, width: inner.width, height: inner.height, pixelWidth: 1, pixelHeight: 1, mime: 'image/png' })
  }
  return { familyFor: (family) => family, images, codes, fittedSizes: new Map() }
}

/** Every number in a style or size is finite, and no string carries NaN or undefined into satori. */
function assertSaneTree(node: SatoriElement | string, path = 'tree'): void {
  if (typeof node === 'string') return
  for (const [name, value] of Object.entries({ ...node.props.style, ...(node.type === 'img' ? { width: node.props.width, height: node.props.height } : {}) })) {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`${path}.style.${name} is ${value}`)
    if (typeof value === 'string' && /NaN|undefined|Infinity/.test(value)) throw new Error(`${path}.style.${name} is ${JSON.stringify(value)}`)
  }
  const children = node.props.children
  if (Array.isArray(children)) children.forEach((child, i) => assertSaneTree(child, `${path}[${i}]`))
  else if (children !== undefined) assertSaneTree(children, `${path}[0]`)
}

type Stage = 'refused_design' | 'refused_overrides' | 'refused_variation' | 'refused_codes' | 'built'

/** One case through every stage; returns how far it got. Throws on anything that is not a clean refusal. */
function runCase(raw: unknown, overrides: unknown, variation: string | undefined): Stage {
  const before = JSON.stringify(raw)
  const validated = refusedOr(() => validateDesign(raw), ['ERR_INVALID_DESIGN'])
  if (!validated.ok) return 'refused_design'
  const doc = validated.value
  const frozen = JSON.stringify(doc)
  const applied = refusedOr(() => applyOverrides(doc, parseOverrides(overrides as never)), ['ERR_INVALID_OVERRIDE'])
  if (JSON.stringify(doc) !== frozen) throw new Error('applyOverrides mutated the validated document')
  if (JSON.stringify(raw) !== before) throw new Error('validation or overrides mutated the input document')
  if (!applied.ok) return 'refused_overrides'
  // What overrides produce is still a valid document (overrides cannot smuggle in what validation refuses).
  const again = refusedOr(() => validateDesign(applied.value.document), ['ERR_INVALID_DESIGN'])
  if (!again.ok) throw new Error(`overrides produced an invalid document: ${again.error.message}`)
  for (const id of (applied.value.document as DesignDocument).variations.map((v) => v.id)) {
    // Every variation of a valid document resolves, overridden or not.
    const resolved = refusedOr(() => resolveVariation(applied.value.document, id), [])
    if (!resolved.ok) throw new Error('unreachable')
  }
  const resolved = refusedOr(() => resolveVariation(applied.value.document, variation), ['ERR_UNKNOWN_VARIATION'])
  if (!resolved.ok) return 'refused_variation'
  const r = resolved.value
  const shown = visible(r.document.components)
  const codes = refusedOr(() => prepareCodes(r.document, shown, applied.value.applied), ['ERR_INVALID_DESIGN', 'ERR_INVALID_OVERRIDE'])
  if (!codes.ok) return 'refused_codes'
  const tree = buildTree(
    r.document.components,
    { width: r.width, height: r.height, layoutWidth: r.document.width, layoutHeight: r.document.height, scale: r.scale, offsetX: r.offsetX, offsetY: r.offsetY, background: r.document.background },
    assetsFor(shown, codes.value),
  )
  assertSaneTree(tree)
  JSON.stringify(tree)
  return 'built'
}

describe('fuzz: validation → overrides → variations → codes → element tree', () => {
  // layout-pass loads bwip-js before it encodes a barcode; this test calls prepareCodes directly.
  beforeAll(() => loadBarcodeEncoder())
  it('never crashes, hangs or mutates its input; every refusal is a coded LithoError naming the field', () => {
    const params = budget('pure', 400, 100_000)
    const counts: Record<Stage, number> = { refused_design: 0, refused_overrides: 0, refused_variation: 0, refused_codes: 0, built: 0 }
    let slowest = 0
    const started = performance.now()
    fc.assert(
      fc.property(fuzzedDocument({ maxSize: 2000, maxComponents: 5 }), overrideInput, variationId, (raw, overrides, variation) => {
        const t0 = performance.now()
        const stage = runCase(raw, overrides, variation)
        const ms = performance.now() - t0
        slowest = Math.max(slowest, ms)
        if (ms > CASE_LIMIT_MS) throw new Error(`one case took ${Math.round(ms)} ms`)
        counts[stage]++
      }),
      params,
    )
    report('pipeline', params.numRuns, started, { ...counts, 'slowest case ms': Math.round(slowest) })
    // The generators are realistic: a good share of cases reach the element tree.
    expect(counts.built / params.numRuns).toBeGreaterThan(0.25)
    expect(counts.refused_design).toBeGreaterThan(0)
  })

  it('parseOverrides takes any input: entries, or ERR_INVALID_OVERRIDE naming where', () => {
    const params = budget('pure', 300, 20_000)
    const started = performance.now()
    fc.assert(
      fc.property(fc.oneof(overrideInput, fc.anything({ withNullPrototype: true, withBoxedValues: true })), (input) => {
        const parsed = refusedOr(() => parseOverrides(input as never), ['ERR_INVALID_OVERRIDE'])
        if (parsed.ok) for (const entry of parsed.value.entries) if (!entry.key.includes('.')) throw new Error(`entry without a field: ${entry.key}`)
      }),
      params,
    )
    report('parseOverrides', params.numRuns, started)
  })
})
