// The editor's side panels: the selected component's (or the document's) properties, the
// layers list, and the raw JSON.
import { useEffect, useState } from 'preact/hooks'
import type { DesignDocument } from '../api.js'
import { ErrorNote } from '../ui.js'
import { DYNAMIC_FIELDS, findComponent, flatten, moveComponent, updateComponent, type Component } from './editor-model.js'

type Setter = (fields: Record<string, unknown>) => void

function NumberField({ label, value, onSet, min, max, step }: { label: string; value: unknown; onSet: (v: number | undefined) => void; min?: number; max?: number; step?: number }) {
  const id = `prop-${label.replace(/\W+/g, '-').toLowerCase()}`
  return (
    <div class="prop">
      <label for={id}>{label}</label>
      <input id={id} type="number" value={typeof value === 'number' ? value : ''} min={min} max={max} step={step ?? 1} onInput={(e) => onSet(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))} />
    </div>
  )
}

function TextField({ label, value, onSet, multiline, type }: { label: string; value: unknown; onSet: (v: string) => void; multiline?: boolean; type?: string }) {
  const id = `prop-${label.replace(/\W+/g, '-').toLowerCase()}`
  return (
    <div class="prop">
      <label for={id}>{label}</label>
      {multiline ? (
        <textarea id={id} rows={3} value={typeof value === 'string' ? value : ''} onInput={(e) => onSet(e.currentTarget.value)} />
      ) : (
        <input id={id} type={type ?? 'text'} value={typeof value === 'string' ? value : ''} onInput={(e) => onSet(e.currentTarget.value)} />
      )}
    </div>
  )
}

function ColourField({ label, value, onSet }: { label: string; value: unknown; onSet: (v: string) => void }) {
  const id = `prop-${label.replace(/\W+/g, '-').toLowerCase()}`
  const hex = typeof value === 'string' && /^#[0-9a-f]{6}/i.test(value) ? value.slice(0, 7) : '#000000'
  if (value !== undefined && typeof value !== 'string') return <p class="muted">{label}: a gradient (edit it in Raw JSON).</p>
  return (
    <div class="prop prop-colour">
      <label for={id}>{label}</label>
      <input id={id} type="color" value={hex} onInput={(e) => onSet(e.currentTarget.value)} />
    </div>
  )
}

function SelectField({ label, value, options, onSet }: { label: string; value: unknown; options: Array<string | number>; onSet: (v: string) => void }) {
  const id = `prop-${label.replace(/\W+/g, '-').toLowerCase()}`
  return (
    <div class="prop">
      <label for={id}>{label}</label>
      <select id={id} value={String(value ?? options[0])} onChange={(e) => onSet(e.currentTarget.value)}>
        {options.map((o) => (
          <option value={String(o)}>{o}</option>
        ))}
      </select>
    </div>
  )
}

function TypeFields({ c, set }: { c: Component; set: Setter }) {
  if (c.type === 'text')
    return (
      <>
        <TextField label="Text" value={c.text} multiline onSet={(v) => set({ text: v })} />
        <NumberField label="Font size" value={c.fontSize ?? 32} min={1} max={1000} onSet={(v) => set({ fontSize: v })} />
        <SelectField label="Font weight" value={c.fontWeight ?? 400} options={[300, 400, 500, 600, 700, 800, 900]} onSet={(v) => set({ fontWeight: Number(v) })} />
        <SelectField label="Font family" value={c.fontFamily ?? 'sans-serif'} options={['sans-serif', 'serif', 'monospace', 'Inter', 'Noto Serif', 'JetBrains Mono']} onSet={(v) => set({ fontFamily: v })} />
        <ColourField label="Text colour" value={c.color ?? '#000000'} onSet={(v) => set({ color: v })} />
        <SelectField label="Align" value={c.align ?? 'left'} options={['left', 'center', 'right', 'justify']} onSet={(v) => set({ align: v })} />
        <SelectField label="Vertical align" value={c.verticalAlign ?? 'top'} options={['top', 'middle', 'bottom']} onSet={(v) => set({ verticalAlign: v })} />
      </>
    )
  if (c.type === 'shape')
    return (
      <>
        <SelectField label="Shape" value={c.shape ?? 'rectangle'} options={['rectangle', 'ellipse', 'line']} onSet={(v) => set({ shape: v })} />
        <ColourField label="Fill" value={c.fill} onSet={(v) => set({ fill: v })} />
        <NumberField label="Corner radius" value={typeof c.radius === 'number' ? c.radius : undefined} min={0} onSet={(v) => set({ radius: v })} />
      </>
    )
  if (c.type === 'image')
    return (
      <>
        <TextField label="Image URL" type="url" value={c.src} onSet={(v) => set({ src: v || undefined })} />
        <SelectField label="Fit" value={c.fit ?? 'cover'} options={['cover', 'contain', 'fill']} onSet={(v) => set({ fit: v })} />
      </>
    )
  if (c.type === 'qrcode' || c.type === 'barcode')
    return (
      <>
        <TextField label="Value" value={c.value} onSet={(v) => set({ value: v })} />
        <ColourField label="Colour" value={c.color ?? '#000000'} onSet={(v) => set({ color: v })} />
      </>
    )
  return null
}

export function PropertiesPanel({ doc, selected, onChange, onDelete }: { doc: DesignDocument; selected: string | null; onChange: (d: DesignDocument) => void; onDelete: (key: string) => void }) {
  const c = selected ? findComponent(doc, selected) : undefined
  if (!c) {
    const setDoc = (fields: Record<string, unknown>) => onChange({ ...doc, ...fields })
    return (
      <section class="panel" aria-labelledby="props-heading">
        <h2 id="props-heading">Canvas</h2>
        <NumberField label="Canvas width" value={doc.width} min={1} max={4096} onSet={(v) => v && setDoc({ width: v })} />
        <NumberField label="Canvas height" value={doc.height} min={1} max={4096} onSet={(v) => v && setDoc({ height: v })} />
        <ColourField label="Background" value={doc.background ?? '#ffffff'} onSet={(v) => setDoc({ background: v })} />
        <p class="muted">Select a component on the canvas or in Layers to edit it.</p>
      </section>
    )
  }
  const set: Setter = (fields) => onChange(updateComponent(doc, c.key, fields))
  const dynamic = new Set((c.dynamic as string[] | undefined) ?? [])
  return (
    <section class="panel" aria-labelledby="props-heading">
      <h2 id="props-heading">
        {c.key} <span class="muted">({c.type})</span>
      </h2>
      <div class="prop-grid">
        <NumberField label="X" value={c.x ?? 0} onSet={(v) => set({ x: v ?? 0 })} />
        <NumberField label="Y" value={c.y ?? 0} onSet={(v) => set({ y: v ?? 0 })} />
        <NumberField label="Width" value={c.width} min={0} onSet={(v) => set({ width: v ?? 0 })} />
        <NumberField label="Height" value={c.height} min={0} onSet={(v) => set({ height: v ?? 0 })} />
        <NumberField label="Rotation" value={c.rotation ?? 0} onSet={(v) => set({ rotation: v || undefined })} />
        <NumberField label="Opacity" value={c.opacity ?? 1} min={0} max={1} step={0.05} onSet={(v) => set({ opacity: v === 1 ? undefined : v })} />
      </div>
      <TypeFields c={c} set={set} />
      <fieldset class="dynamic">
        <legend>Overridable by renders</legend>
        {(DYNAMIC_FIELDS[c.type] ?? []).map((field) => (
          <label class="check">
            <input type="checkbox" checked={dynamic.has(field)} onChange={(e) => set({ dynamic: (DYNAMIC_FIELDS[c.type] ?? []).filter((f) => (f === field ? e.currentTarget.checked : dynamic.has(f))) })} />
            {c.key}.{field}
          </label>
        ))}
      </fieldset>
      <button type="button" class="danger" onClick={() => onDelete(c.key)}>
        Delete component
      </button>
    </section>
  )
}

export function LayersPanel({ doc, selected, onSelect, onChange }: { doc: DesignDocument; selected: string | null; onSelect: (key: string) => void; onChange: (d: DesignDocument) => void }) {
  // Topmost first, as layer lists show them (the document paints the first at the bottom).
  const layers = flatten(doc.components as Component[]).reverse()
  return (
    <section class="panel" aria-labelledby="layers-heading">
      <h2 id="layers-heading">Layers</h2>
      {layers.length === 0 && <p class="muted">Empty canvas: add text, a shape or an image.</p>}
      <ul class="layers">
        {layers.map(({ component, depth }) => (
          <li class={selected === component.key ? 'selected' : ''} style={{ paddingLeft: `${depth}rem` }}>
            <button type="button" class="layer" aria-pressed={selected === component.key} onClick={() => onSelect(component.key)}>
              {component.key} <span class="muted">{component.type}</span>
            </button>
            {depth === 0 && (
              <>
                <button type="button" aria-label={`Bring ${component.key} forward`} onClick={() => onChange(moveComponent(doc, component.key, 1))}>
                  ↑
                </button>
                <button type="button" aria-label={`Send ${component.key} backward`} onClick={() => onChange(moveComponent(doc, component.key, -1))}>
                  ↓
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
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
