// Sizes: the design's variations (docs/design-document.md, "Variations"). Choose the size the
// canvas shows and edits, add one (name, width, height), change or delete it. While a variation
// is edited, moving or changing a component writes that variation's patch.
import { useState } from 'preact/hooks'
import type { DesignDocument } from '../api.js'
import { updateVariation, variationId, type Variation } from './editor-model.js'
import { issueAt, issuesUnder, NumberField, TextField } from './editor-fields.js'

export const MASTER = 'master'

export interface VariationsProps {
  doc: DesignDocument
  editing: string
  onEdit: (id: string) => void
  onChange: (doc: DesignDocument) => void
  /** The API's last answers (preview, save): their issues at `document.variations[i].…` show at the fields. */
  errors: unknown[]
}

export function VariationsPanel({ doc, editing, onEdit, onChange, errors }: VariationsProps) {
  const variations = (doc.variations ?? []) as Variation[]
  const [name, setName] = useState('')
  const [width, setWidth] = useState<number | undefined>(1080)
  const [height, setHeight] = useState<number | undefined>(1920)
  const [formError, setFormError] = useState('')
  const index = variations.findIndex((v) => v.id === editing)
  const current = variations[index]
  const issues = Object.assign({}, ...errors.map((e) => issuesUnder(e, `document.variations[${index}]`))) as Record<string, string>
  const patched = current?.components ? Object.keys(current.components).length : 0

  const add = (event: Event) => {
    event.preventDefault()
    if (!name.trim()) return setFormError('Give the variation a name.')
    if (!width || !height) return setFormError('Give the variation a width and a height.')
    setFormError('')
    const id = variationId(doc, name.trim())
    onChange({ ...doc, variations: [...variations, { id, name: name.trim(), width, height }] })
    onEdit(id)
    setName('')
  }
  const remove = (id: string) => {
    onChange({ ...doc, variations: variations.filter((v) => v.id !== id) })
    if (editing === id) onEdit(MASTER)
  }

  return (
    <section class="panel" aria-labelledby="sizes-heading">
      <h2 id="sizes-heading">Variations</h2>
      <ul class="layers" aria-label="Variations of this design">
        <li class={editing === MASTER ? 'selected' : ''}>
          <button type="button" class="layer" aria-pressed={editing === MASTER} onClick={() => onEdit(MASTER)}>
            Base size (master) <span class="muted">{doc.width} × {doc.height}</span>
          </button>
        </li>
        {variations.map((v) => (
          <li class={editing === v.id ? 'selected' : ''}>
            <button type="button" class="layer" aria-pressed={editing === v.id} aria-label={`Edit variation ${v.name ?? v.id}`} onClick={() => onEdit(v.id)}>
              {v.name ?? v.id} <span class="muted">{v.width} × {v.height}</span>
            </button>
            <button type="button" class="icon" aria-label={`Delete variation ${v.name ?? v.id}`} onClick={() => remove(v.id)}>
              ✕
            </button>
          </li>
        ))}
      </ul>
      {current && (
        <div class="variation">
          <p class="muted">
            Variation <code>{current.id}</code> (render it with <code>variation={current.id}</code>).{' '}
            {patched ? `${patched} component${patched === 1 ? '' : 's'} changed for it.` : 'No component changed yet: the base layout is scaled to fit it. Your first change lays it out at its own size.'}
          </p>
          <TextField label="Variation name" value={current.name ?? ''} error={issueAt(issues, 'name')} onSet={(v) => onChange(updateVariation(doc, current.id, { name: v || undefined }))} />
          <div class="prop-grid">
            <NumberField label="Variation width" value={current.width} min={1} max={4096} error={issueAt(issues, 'width')} onSet={(v) => onChange(updateVariation(doc, current.id, { width: v ?? 0 }))} />
            <NumberField label="Variation height" value={current.height} min={1} max={4096} error={issueAt(issues, 'height')} onSet={(v) => onChange(updateVariation(doc, current.id, { height: v ?? 0 }))} />
          </div>
          {issueAt(issues, 'components') && <p class="field-error">{issueAt(issues, 'components')}</p>}
        </div>
      )}
      <form class="add-size" onSubmit={add} aria-labelledby="add-size-heading">
        <h3 id="add-size-heading">Add a variation</h3>
        <TextField label="New variation name" value={name} onSet={setName} />
        <div class="prop-grid">
          <NumberField label="New variation width" value={width} min={1} onSet={setWidth} />
          <NumberField label="New variation height" value={height} min={1} onSet={setHeight} />
        </div>
        {formError && <p class="field-error">{formError}</p>}
        <button type="submit">Add variation</button>
      </form>
    </section>
  )
}
