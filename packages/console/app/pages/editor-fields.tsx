// The editor's labelled form fields: each has a visible label and shows the API's problem with
// its value (a validation issue at its path) beneath it, tied to it by aria-describedby.
import type { ComponentChildren } from 'preact'

/** Problems by field path relative to what a panel edits (`fontSize`, `layout.gap`). */
export type Issues = Record<string, string>

/** The problem of field `name` (or of a path inside it). */
export function issueAt(issues: Issues | undefined, name: string): string | undefined {
  if (!issues) return undefined
  for (const [path, message] of Object.entries(issues)) if (path === name || path.startsWith(`${name}.`) || path.startsWith(`${name}[`)) return message
  return undefined
}

/** The issues of an API error whose path starts with `prefix.`, by the rest of the path. */
export function issuesUnder(error: unknown, prefix: string): Issues {
  const list = ((error as { body?: { issues?: Array<{ path?: string; message?: string }> } } | null)?.body?.issues ?? []) as Array<{ path?: string; message?: string }>
  const out: Issues = {}
  for (const issue of list) if (issue.path?.startsWith(`${prefix}.`)) out[issue.path.slice(prefix.length + 1)] ??= issue.message ?? 'invalid'
  return out
}

const idOf = (label: string) => `prop-${label.replace(/\W+/g, '-').toLowerCase()}`

function Field({ id, label, error, children, class: extra }: { id: string; label: string; error?: string | undefined; children: ComponentChildren; class?: string }) {
  return (
    <div class={`prop${extra ? ` ${extra}` : ''}`}>
      <label for={id}>{label}</label>
      {children}
      {error && (
        <span id={`${id}-error`} class="field-error">
          {error}
        </span>
      )}
    </div>
  )
}

const described = (id: string, error?: string) => (error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {})

export function NumberField({ label, value, onSet, min, max, step, error }: { label: string; value: unknown; onSet: (v: number | undefined) => void; min?: number; max?: number; step?: number; error?: string | undefined }) {
  const id = idOf(label)
  return (
    <Field id={id} label={label} error={error}>
      <input id={id} type="number" value={typeof value === 'number' ? value : ''} min={min} max={max} step={step ?? 1} {...described(id, error)} onInput={(e) => onSet(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))} />
    </Field>
  )
}

export function TextField({ label, value, onSet, multiline, type, error }: { label: string; value: unknown; onSet: (v: string) => void; multiline?: boolean; type?: string; error?: string | undefined }) {
  const id = idOf(label)
  const text = typeof value === 'string' ? value : ''
  return (
    <Field id={id} label={label} error={error}>
      {multiline ? <textarea id={id} rows={3} value={text} {...described(id, error)} onInput={(e) => onSet(e.currentTarget.value)} /> : <input id={id} type={type ?? 'text'} value={text} {...described(id, error)} onInput={(e) => onSet(e.currentTarget.value)} />}
    </Field>
  )
}

export function ColourField({ label, value, onSet, error }: { label: string; value: unknown; onSet: (v: string) => void; error?: string | undefined }) {
  const id = idOf(label)
  const hex = typeof value === 'string' && /^#[0-9a-f]{6}/i.test(value) ? value.slice(0, 7) : '#000000'
  if (value !== undefined && typeof value !== 'string') return <p class="muted">{label}: a gradient (edit it in Raw JSON).</p>
  return (
    <Field id={id} label={label} error={error} class="prop-colour">
      <input id={id} type="color" value={hex} {...described(id, error)} onInput={(e) => onSet(e.currentTarget.value)} />
    </Field>
  )
}

export function SelectField({ label, value, options, onSet, error }: { label: string; value: unknown; options: Array<string | number>; onSet: (v: string) => void; error?: string | undefined }) {
  const id = idOf(label)
  return (
    <Field id={id} label={label} error={error}>
      <select id={id} value={String(value ?? options[0])} {...described(id, error)} onChange={(e) => onSet(e.currentTarget.value)}>
        {options.map((o) => (
          <option value={String(o)}>{o}</option>
        ))}
      </select>
    </Field>
  )
}

export function CheckField({ label, checked, onSet }: { label: string; checked: boolean; onSet: (v: boolean) => void }) {
  return (
    <label class="check plain">
      <input type="checkbox" checked={checked} onChange={(e) => onSet(e.currentTarget.checked)} />
      {label}
    </label>
  )
}
