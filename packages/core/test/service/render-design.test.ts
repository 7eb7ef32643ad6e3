import { memoryDesignStore } from '@litho/storage-adapters/design-store'
import { memoryFileStore } from '@litho/storage-adapters/file-store'
import { memoryMeter } from '@litho/storage-adapters/memory'
import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { LithoError, createRenderer, createUrlSigner, renderDesign, type RenderOptions, type RenderResult, type ResolvedDocument } from '../../src/index.js'

const alice = { id: 'u_alice', plan: 'pro' as const }
const NOW = new Date('2026-11-23T12:00:00Z')
const design = {
  version: 2,
  width: 300,
  height: 100,
  background: '#ffffff',
  components: [
    { key: 'title', type: 'text', width: 280, height: 40, text: 'Hi' },
    { type: 'barcode', key: 'ean', y: 40, width: 200, height: 60, value: '4006381333931', symbology: 'ean13' },
  ],
  variations: [{ id: 'wide', width: 600, height: 200 }],
}

async function services(renderer: Parameters<typeof renderDesign>[0]['renderer']) {
  const designs = memoryDesignStore()
  const renderCode = `rc_${randomBytes(12).toString('base64url')}`
  await designs.create({ id: 'd_0001', ownerId: alice.id, name: 'Card', renderCode, design, draft: null, createdAt: NOW.toISOString(), updatedAt: NOW.toISOString() })
  const files = memoryFileStore({ publicBaseUrl: 'https://render.example.test/files', signer: createUrlSigner({ keys: [{ id: 'k1', secret: randomBytes(32) }] }) })
  return { services: { designs, files, meter: memoryMeter(), renderer, clock: { now: () => NOW } }, renderCode }
}

describe('render path › each thing once', () => {
  const real = createRenderer()
  afterAll(() => real.close())

  it('render path › the service hands the renderer a resolved document (renderResolved), never the raw one to resolve again', async () => {
    const calls: Array<{ resolved: ResolvedDocument; output: unknown }> = []
    const renderer = {
      render: async (_document: unknown, _options?: RenderOptions): Promise<RenderResult> => {
        throw new Error('render() must not be called when renderResolved() exists')
      },
      renderResolved: async (resolved: ResolvedDocument, output?: unknown): Promise<RenderResult> => {
        calls.push({ resolved, output })
        return { bytes: new Uint8Array([1]), contentType: 'image/png', format: 'png', width: resolved.width, height: resolved.height, variation: resolved.variation, warnings: [] }
      },
    }
    const { services: s, renderCode } = await services(renderer)
    const result = await renderDesign(s, { account: alice, renderCode, params: { format: 'png', variation: 'wide' }, overrides: 'title.text=Hello&nothing.here=1' })
    expect(calls).toHaveLength(1)
    expect(calls[0]!.output).toEqual({ format: 'png', quality: 80 })
    expect(calls[0]!.resolved).toMatchObject({ variation: 'wide', width: 600, height: 200, overridden: ['title.text'] })
    // The stored design and its version travel along, for the render threads' layer caches.
    // The version: the record's updatedAt and a digest of its content (43 base64url characters).
    expect(calls[0]!.resolved.source?.designId).toBe('d_0001')
    expect(calls[0]!.resolved.source?.version).toMatch(new RegExp(`^${NOW.toISOString().replaceAll('.', '\\.')}~[A-Za-z0-9_-]{43}$`))
    // The ignored override is reported once, by the service, not again by the renderer.
    expect(result.warnings.filter((w) => w.code === 'override_ignored')).toHaveLength(1)
  })

  it('render path › an override ean.value=ABC through the render service is ERR_INVALID_OVERRIDE, as through render()', async () => {
    const { services: s, renderCode } = await services(real)
    const error = await renderDesign(s, { account: alice, renderCode, params: { format: 'png' }, overrides: 'ean.value=ABC' }).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(LithoError.isInstance(error) && error.code).toBe('ERR_INVALID_OVERRIDE')
    expect((error as LithoError).issues.map((issue) => issue.path)).toEqual(['ean.value'])
  })

  it('render path › render() and renderResolved() of createRenderer give the same bytes', async () => {
    const { resolveDocument } = await import('../../src/index.js')
    const direct = await real.render(design, { format: 'png', overrides: { 'title.text': 'Same' }, variation: 'wide' })
    const resolved = await real.renderResolved!(resolveDocument(design, { overrides: { 'title.text': 'Same' }, variation: 'wide' }), { format: 'png' })
    expect(Buffer.from(resolved.bytes).equals(Buffer.from(direct.bytes))).toBe(true)
  })
})

describe('render path › validated designs are reused only while their content is the same', () => {
  it('render path › a changed design is rendered at once, even with the same updatedAt (a fixed clock)', async () => {
    const calls: ResolvedDocument[] = []
    const renderer = {
      render: async (): Promise<RenderResult> => {
        throw new Error('unused')
      },
      renderResolved: async (resolved: ResolvedDocument): Promise<RenderResult> => {
        calls.push(resolved)
        return { bytes: new Uint8Array([1]), contentType: 'image/png', format: 'png', width: resolved.width, height: resolved.height, variation: resolved.variation, warnings: [] }
      },
    }
    const { services: s, renderCode } = await services(renderer)
    await renderDesign(s, { account: alice, renderCode, params: { format: 'png' } })
    await renderDesign(s, { account: alice, renderCode, params: { format: 'png' } })
    // The second render reuses the validated document (frozen: shared between requests).
    expect(calls[1]!.document).toBe(calls[0]!.document)
    expect(Object.isFrozen(calls[0]!.document.components[0])).toBe(true)
    const record = (await s.designs.get('d_0001'))!
    const changed = { ...design, components: [{ ...design.components[0]!, text: 'Changed' }, design.components[1]!] }
    await s.designs.update({ ...record, design: changed })
    await renderDesign(s, { account: alice, renderCode, params: { format: 'png' } })
    expect(calls[2]!.document.components[0]).toMatchObject({ key: 'title', text: 'Changed' })
    // A broken stored document is refused, not served from what was valid before.
    await s.designs.update({ ...record, design: { ...design, width: 'wide' } })
    const error = await renderDesign(s, { account: alice, renderCode, params: { format: 'png' } }).then(() => undefined, (e: unknown) => e)
    expect(LithoError.isInstance(error) && error.code).toBe('ERR_INVALID_DESIGN')
    expect(calls).toHaveLength(3)
  })
})
