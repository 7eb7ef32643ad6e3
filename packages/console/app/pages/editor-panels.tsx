// The editor's side panels: the selected component's (or the canvas's) properties, and the raw
// JSON. In a variation the properties are the component as that size shows it, and a change
// goes into the variation's patch.
import { useEffect, useState } from 'preact/hooks'
import type { DesignDocument } from '../api.js'
import { ErrorNote } from '../ui.js'
import { DYNAMIC_FIELDS, type Component } from './editor-model.js'
import { CheckField, ColourField, issueAt, NumberField, SelectField, TextField, type Issues } from './editor-fields.js'

type Setter = (fields: Record<string, unknown>) => void

const SYMBOLOGIES = ['code128', 'ean13', 'ean8', 'upca', 'upce', 'code39', 'itf14', 'datamatrix', 'pdf417']

function GroupFields({ c, set, issues }: { c: Component; set: Setter; issues: Issues }) {
  const layout = c.layout as Record<string, unknown> | undefined
  const setLayout = (fields: Record<string, unknown>) => set({ layout: { ...layout, ...fields } })
  return (
    <>
      <ColourField label="Group background" value={c.background} error={issueAt(issues, 'background')} onSet={(v) => set({ background: v })} />
      <CheckField label="Auto layout (children placed in a row or column)" checked={!!layout} onSet={(on) => set({ layout: on ? { direction: 'row', gap: 16, align: 'center', justify: 'start', padding: 16 } : undefined })} />
      {layout && (
        <div class="prop-grid">
          <SelectField label="Layout direction" value={layout.direction ?? 'row'} options={['row', 'column']} error={issueAt(issues, 'layout.direction')} onSet={(v) => setLayout({ direction: v })} />
          <NumberField label="Layout gap" value={layout.gap ?? 0} min={0} max={10000} error={issueAt(issues, 'layout.gap')} onSet={(v) => setLayout({ gap: v ?? 0 })} />
          <SelectField label="Layout align" value={layout.align ?? 'start'} options={['start', 'center', 'end', 'stretch']} error={issueAt(issues, 'layout.align')} onSet={(v) => setLayout({ align: v })} />
          <SelectField label="Layout justify" value={layout.justify ?? 'start'} options={['start', 'center', 'end', 'space-between', 'space-around', 'space-evenly']} error={issueAt(issues, 'layout.justify')} onSet={(v) => setLayout({ justify: v })} />
          {typeof layout.padding === 'object' ? (
            <p class="muted">Padding: per side (edit it in Raw JSON).</p>
          ) : (
            <NumberField label="Layout padding" value={layout.padding ?? 0} min={0} max={10000} error={issueAt(issues, 'layout.padding')} onSet={(v) => setLayout({ padding: v ?? 0 })} />
          )}
        </div>
      )}
    </>
  )
}

function TypeFields({ c, set, issues }: { c: Component; set: Setter; issues: Issues }) {
  const at = (name: string) => issueAt(issues, name)
  if (c.type === 'text')
    return (
      <>
        <TextField label="Text" value={c.text} multiline error={at('text')} onSet={(v) => set({ text: v })} />
        <NumberField label="Font size" value={c.fontSize ?? 32} min={1} max={1000} error={at('fontSize')} onSet={(v) => set({ fontSize: v })} />
        <SelectField label="Font weight" value={c.fontWeight ?? 400} options={[300, 400, 500, 600, 700, 800, 900]} onSet={(v) => set({ fontWeight: Number(v) })} />
        <SelectField label="Font family" value={c.fontFamily ?? 'sans-serif'} options={['sans-serif', 'serif', 'monospace', 'Inter', 'Noto Serif', 'JetBrains Mono']} onSet={(v) => set({ fontFamily: v })} />
        <ColourField label="Text colour" value={c.color ?? '#000000'} error={at('color')} onSet={(v) => set({ color: v })} />
        <SelectField label="Align" value={c.align ?? 'left'} options={['left', 'center', 'right', 'justify']} onSet={(v) => set({ align: v })} />
        <SelectField label="Vertical align" value={c.verticalAlign ?? 'top'} options={['top', 'middle', 'bottom']} onSet={(v) => set({ verticalAlign: v })} />
      </>
    )
  if (c.type === 'shape')
    return (
      <>
        <SelectField label="Shape" value={c.shape ?? 'rectangle'} options={['rectangle', 'ellipse', 'line']} onSet={(v) => set({ shape: v })} />
        <ColourField label="Fill" value={c.fill} error={at('fill')} onSet={(v) => set({ fill: v })} />
        <NumberField label="Corner radius" value={typeof c.radius === 'number' ? c.radius : undefined} min={0} error={at('radius')} onSet={(v) => set({ radius: v })} />
      </>
    )
  if (c.type === 'image')
    return (
      <>
        <TextField label="Image URL" type="url" value={c.src} error={at('src')} onSet={(v) => set({ src: v || undefined })} />
        <SelectField label="Fit" value={c.fit ?? 'cover'} options={['cover', 'contain', 'fill']} onSet={(v) => set({ fit: v })} />
      </>
    )
  const colours = (
    <>
      <ColourField label="Code colour" value={c.color ?? '#000000'} error={at('color')} onSet={(v) => set({ color: v })} />
      <ColourField label="Code background" value={c.background ?? '#ffffff'} error={at('background')} onSet={(v) => set({ background: v })} />
    </>
  )
  if (c.type === 'qrcode')
    return (
      <>
        <TextField label="QR value" value={c.value} error={at('value')} onSet={(v) => set({ value: v })} />
        <SelectField label="Error correction" value={c.errorCorrection ?? 'M'} options={['L', 'M', 'Q', 'H']} onSet={(v) => set({ errorCorrection: v })} />
        {colours}
      </>
    )
  if (c.type === 'barcode')
    return (
      <>
        <TextField label="Barcode value" value={c.value} error={at('value')} onSet={(v) => set({ value: v })} />
        <SelectField label="Symbology" value={c.symbology ?? 'code128'} options={SYMBOLOGIES} error={at('symbology')} onSet={(v) => set({ symbology: v })} />
        {colours}
      </>
    )
  if (c.type === 'group') return <GroupFields c={c} set={set} issues={issues} />
  return null
}

export interface PropertiesProps {
  /** The document as the size being edited shows it. */
  doc: DesignDocument
  component: Component | undefined
  /** The name of the variation being edited; absent for the base size. */
  variation?: string | undefined
  /** Whether the component's group places it by auto layout. */
  inFlow: boolean
  issues: Issues
  onSet: (key: string, fields: Record<string, unknown>) => void
  onDoc: (fields: Record<string, unknown>) => void
  onDelete: (key: string) => void
}

export function PropertiesPanel({ doc, component: c, variation, inFlow, issues, onSet, onDoc, onDelete }: PropertiesProps) {
  if (!c) {
    if (variation) return null
    return (
      <section class="panel" aria-labelledby="props-heading">
        <h2 id="props-heading">Canvas</h2>
        <NumberField label="Canvas width" value={doc.width} min={1} max={4096} error={issueAt(issues, 'width')} onSet={(v) => v && onDoc({ width: v })} />
        <NumberField label="Canvas height" value={doc.height} min={1} max={4096} error={issueAt(issues, 'height')} onSet={(v) => v && onDoc({ height: v })} />
        <ColourField label="Background" value={doc.background ?? '#ffffff'} error={issueAt(issues, 'background')} onSet={(v) => onDoc({ background: v })} />
        <p class="muted">Select a component on the canvas or in Layers to edit it.</p>
      </section>
    )
  }
  const set: Setter = (fields) => onSet(c.key, fields)
  const dynamic = new Set((c.dynamic as string[] | undefined) ?? [])
  const at = (name: string) => issueAt(issues, name)
  return (
    <section class="panel" aria-labelledby="props-heading">
      <h2 id="props-heading">
        {c.key} <span class="muted">({c.type})</span>
      </h2>
      {variation && <p class="note">Editing the variation {variation}: changes here apply to it only.</p>}
      {inFlow && <p class="muted">Placed by its group's auto layout: X and Y are ignored.</p>}
      <div class="prop-grid">
        <NumberField label="X" value={c.x ?? 0} error={at('x')} onSet={(v) => set({ x: v ?? 0 })} />
        <NumberField label="Y" value={c.y ?? 0} error={at('y')} onSet={(v) => set({ y: v ?? 0 })} />
        <NumberField label="Width" value={c.width} min={0} error={at('width')} onSet={(v) => set({ width: v ?? 0 })} />
        <NumberField label="Height" value={c.height} min={0} error={at('height')} onSet={(v) => set({ height: v ?? 0 })} />
        <NumberField label="Rotation" value={c.rotation ?? 0} error={at('rotation')} onSet={(v) => set({ rotation: v || undefined })} />
        <NumberField label="Opacity" value={c.opacity ?? 1} min={0} max={1} step={0.05} error={at('opacity')} onSet={(v) => set({ opacity: v === 1 ? undefined : v })} />
      </div>
      <TypeFields c={c} set={set} issues={issues} />
      {!variation && (
        <fieldset class="dynamic">
          <legend>Overridable by renders</legend>
          {(DYNAMIC_FIELDS[c.type] ?? []).map((field) => (
            <label class="check">
              <input type="checkbox" checked={dynamic.has(field)} onChange={(e) => set({ dynamic: (DYNAMIC_FIELDS[c.type] ?? []).filter((f) => (f === field ? e.currentTarget.checked : dynamic.has(f))) })} />
              {c.key}.{field}
            </label>
          ))}
        </fieldset>
      )}
      <button type="button" class="danger" onClick={() => onDelete(c.key)}>
        Delete component
      </button>
    </section>
  )
}

export function JsonPanel({ doc, onApply }: { doc: DesignDocument; onApply: (d: DesignDocument) => void }) {
  const [text, setText] = useState(JSON.stringify(doc, null, 2))
  const [problem, setProblem] = useState<unknown>(null)
  useEffect(() => setText(JSON.stringify(doc, null, 2)), [doc])
  const apply = () => {
    try {
      const parsed = JSON.parse(text) as DesignDocument
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('The document must be a JSON object.')
      setProblem(null)
      onApply(parsed)
    } catch (error) {
      setProblem(error)
    }
  }
  return (
    <section class="panel">
      <label for="design-json">Design JSON</label>
      <textarea id="design-json" class="json" rows={24} spellcheck={false} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      <ErrorNote error={problem} />
      <button type="button" onClick={apply}>
        Apply JSON
      </button>
    </section>
  )
}
