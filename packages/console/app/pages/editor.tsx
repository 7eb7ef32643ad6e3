// The visual editor: the real render of the working document (POST …/preview with `document`)
// with every component's box drawn over it from `layout`; select, drag, resize, nudge with the
// arrow keys; properties, layers (hide, lock), variations, add and delete, undo and redo; Save
// draft and Publish.
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, type Design, type DesignDocument, type Preview } from '../api.js'
import { ErrorNote, useDebounced, useLoad } from '../ui.js'
import { issuesUnder } from './editor-fields.js'
import { isLocked, LayersPanel, useLocks } from './editor-layers.js'
import { addComponent, commit, findComponent, flatten, newComponent, patchComponent, redo, removeComponent, undo, updateComponent, variationView, type Component, type History, type NewType, type Variation } from './editor-model.js'
import { JsonPanel, PropertiesPanel } from './editor-panels.js'
import { MASTER, VariationsPanel } from './editor-variations.js'

const ADD: Array<[NewType, string]> = [
  ['text', 'Add text'],
  ['shape', 'Add shape'],
  ['image', 'Add image'],
  ['qrcode', 'Add QR code'],
  ['barcode', 'Add barcode'],
  ['group', 'Add group'],
]

interface Drag {
  key: string
  mode: 'move' | 'resize'
  startX: number
  startY: number
  dx: number
  dy: number
  /** Document pixels per screen pixel. */
  ratio: number
}

export function Editor({ design, onSaved }: { design: Design; onSaved: (d: Design) => void }) {
  const initial = (design.draft ?? design.design ?? { version: 2, width: 1200, height: 630, components: [] }) as DesignDocument
  const [history, setHistory] = useState<History>({ past: [], present: initial, future: [] })
  const [saved, setSaved] = useState(JSON.stringify(initial))
  const [name, setName] = useState(design.name)
  const [savedName, setSavedName] = useState(design.name)
  const [selected, setSelected] = useState<string | null>(null)
  const [drag, setDrag] = useState<Drag | null>(null)
  const [view, setView] = useState<'canvas' | 'json'>('canvas')
  const [status, setStatus] = useState('')
  const [problem, setProblem] = useState<unknown>(null)
  const [editingId, setEditing] = useState(MASTER)
  const [locked, toggleLock] = useLocks(design._id)
  const doc = history.present
  const variations = (doc.variations ?? []) as Variation[]
  // The size the canvas shows and edits: the base size, or a variation (patched as it renders).
  const editing = variations.some((v) => v.id === editingId) ? editingId : MASTER
  const shown = editing === MASTER ? doc : variationView(doc, editing)
  const change = (next: DesignDocument) => {
    // A save's refusal is about the document it sent: an edit clears it (the preview re-checks).
    setProblem(null)
    setHistory((h) => commit(h, next))
  }
  const dirty = JSON.stringify(doc) !== saved || name.trim() !== savedName

  const request = useDebounced(JSON.stringify({ document: doc, ...(editing === MASTER ? {} : { variation: editing }) }), 250)
  const preview = useLoad(() => api<Preview>(`/designs/v2/${encodeURIComponent(design._id)}/preview`, { method: 'POST', json: { ...JSON.parse(request), maxSide: 1600 } }), [request])
  const frame = useRef<HTMLDivElement>(null)

  /** Sets fields of component `key`: in the document, or in the edited variation's patch. */
  const setFields = (key: string, fields: Record<string, unknown>) => change(editing === MASTER ? updateComponent(doc, key, fields) : patchComponent(doc, editing, key, fields))
  const nudge = (key: string, dx: number, dy: number) => {
    const c = findComponent(shown, key)
    if (c && !isLocked(doc, locked, key)) setFields(key, { x: Math.round((c.x ?? 0) + dx), y: Math.round((c.y ?? 0) + dy) })
  }
  const remove = (key: string) => {
    change(removeComponent(doc, key))
    setSelected(null)
  }
  const add = (type: NewType) => {
    // Into the selected group, else on top of the canvas.
    const group = selected ? findComponent(doc, selected) : undefined
    const parent = group?.type === 'group' ? group : undefined
    const component = newComponent(doc, type, parent)
    change(addComponent(doc, component, parent?.key))
    setSelected(component.key)
    setStatus(parent ? `Added ${component.key} to the group ${parent.key}.` : '')
  }
  const entry = selected ? flatten(doc.components as Component[]).find((c) => c.component.key === selected) : undefined
  const parentOf = entry?.parent ? findComponent(doc, entry.parent) : undefined
  // The API's problems with the selected component, or with the canvas, shown at their fields.
  const errors = [preview.error, problem]
  const vIndex = variations.findIndex((v) => v.id === editing)
  const issues = Object.assign(
    {},
    ...errors.map((e) => (entry ? { ...issuesUnder(e, `document.${entry.path}`), ...(vIndex >= 0 ? issuesUnder(e, `document.variations[${vIndex}].components.${entry.component.key}`) : {}) } : issuesUnder(e, 'document'))),
  ) as Record<string, string>

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement
      if (target.closest('input, textarea, select')) return
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z') {
        event.preventDefault()
        setHistory((h) => (event.shiftKey ? redo(h) : undo(h)))
      } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'y') {
        event.preventDefault()
        setHistory(redo)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  const save = async (publish: boolean) => {
    setProblem(null)
    setStatus(publish ? 'Publishing…' : 'Saving…')
    try {
      const path = `/designs/v2/${encodeURIComponent(design._id)}`
      const renamed = name.trim() && name.trim() !== savedName ? { name: name.trim() } : {}
      let answer = dirty || !publish ? await api<Design>(path, { method: 'PATCH', json: { document: doc, ...renamed } }) : design
      if (publish) answer = await api<Design>(`${path}/publish`, { method: 'POST' })
      setSaved(JSON.stringify(doc))
      setSavedName(answer.name)
      setStatus(publish ? 'Published: the render URL now renders this version.' : 'Draft saved. The render URL still renders the published version until you publish.')
      onSaved(answer)
    } catch (error) {
      setStatus('')
      setProblem(error)
    }
  }

  const onPointerDown = (event: PointerEvent, key: string, mode: Drag['mode']) => {
    event.stopPropagation()
    if (isLocked(doc, locked, key)) return
    setSelected(key)
    const rect = frame.current!.getBoundingClientRect()
    const ratio = (preview.data?.layout?.width ?? doc.width ?? rect.width) / rect.width
    ;(event.currentTarget as HTMLElement).setPointerCapture(event.pointerId)
    setDrag({ key, mode, startX: event.clientX, startY: event.clientY, dx: 0, dy: 0, ratio })
  }
  const onPointerMove = (event: PointerEvent) => {
    if (drag) setDrag({ ...drag, dx: (event.clientX - drag.startX) * drag.ratio, dy: (event.clientY - drag.startY) * drag.ratio })
  }
  const onPointerUp = () => {
    if (!drag) return
    const c = findComponent(shown, drag.key)
    if (c && (Math.abs(drag.dx) >= 1 || Math.abs(drag.dy) >= 1)) {
      if (drag.mode === 'move') setFields(drag.key, { x: Math.round((c.x ?? 0) + drag.dx), y: Math.round((c.y ?? 0) + drag.dy) })
      else setFields(drag.key, { width: Math.max(1, Math.round(c.width + drag.dx)), height: Math.max(1, Math.round(c.height + drag.dy)) })
    }
    setDrag(null)
  }

  const layout = preview.data?.layout
  const pct = (value: number, of: number) => `${(value / of) * 100}%`
  return (
    <div class="editor">
      <div class="toolbar" role="toolbar" aria-label="Editor">
        {ADD.map(([type, label]) => (
          <button type="button" onClick={() => add(type)}>
            {label}
          </button>
        ))}
        <button type="button" onClick={() => setHistory(undo)} disabled={history.past.length === 0}>Undo</button>
        <button type="button" onClick={() => setHistory(redo)} disabled={history.future.length === 0}>Redo</button>
        <button type="button" aria-pressed={view === 'json'} onClick={() => setView(view === 'json' ? 'canvas' : 'json')}>Raw JSON</button>
        <span class="spacer" />
        <button type="button" onClick={() => save(false)} disabled={!dirty}>Save draft</button>
        <button type="button" class="primary" onClick={() => save(true)}>Publish</button>
      </div>
      <p role="status" class="muted">{status || (dirty ? 'Unsaved changes.' : '')}</p>
      <ErrorNote error={problem} />
      {view === 'json' ? (
        <JsonPanel doc={doc} onApply={change} />
      ) : (
        <div class="editor-grid">
          <div>
            {editing !== MASTER && (
              <p class="note">
                Editing the variation {variations[vIndex]?.name ?? editing} ({shown.width} × {shown.height}): moves and changes apply to it only.
              </p>
            )}
            <div class="canvas" ref={frame} style={{ maxWidth: `calc(72vh * ${(shown.width ?? 1200) / (shown.height ?? 630)})` }} onPointerMove={onPointerMove} onPointerUp={onPointerUp} onPointerDown={() => setSelected(null)}>
              {preview.data ? <img src={preview.data.image} alt="Canvas" draggable={false} /> : <div class="canvas-empty">Rendering…</div>}
              {layout?.components.map((box) => {
                const moving = drag?.key === box.key
                const dx = moving && drag.mode === 'move' ? drag.dx : 0
                const dy = moving && drag.mode === 'move' ? drag.dy : 0
                const dw = moving && drag.mode === 'resize' ? drag.dx : 0
                const dh = moving && drag.mode === 'resize' ? drag.dy : 0
                const isSelected = selected === box.key
                const style = { left: pct(box.x + dx, layout.width), top: pct(box.y + dy, layout.height), width: pct(Math.max(1, box.width + dw), layout.width), height: pct(Math.max(1, box.height + dh), layout.height) }
                // A locked component is outlined only: the pointer reaches what is under it.
                if (isLocked(doc, locked, box.key)) return <div key={box.key} class={`box locked${isSelected ? ' selected' : ''}`} style={style} />
                return (
                  <div
                    key={box.key}
                    class={`box${isSelected ? ' selected' : ''}`}
                    style={style}
                  >
                    <button
                      type="button"
                      class="box-body"
                      aria-label={`${box.key} (${box.type})`}
                      aria-pressed={isSelected}
                      onPointerDown={(e) => onPointerDown(e, box.key, 'move')}
                      onFocus={() => setSelected(box.key)}
                      onKeyDown={(e) => {
                        const step = e.shiftKey ? 10 : 1
                        const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }
                        const move = moves[e.key]
                        if (move) {
                          e.preventDefault()
                          nudge(box.key, move[0], move[1])
                        } else if (e.key === 'Delete' || e.key === 'Backspace') {
                          e.preventDefault()
                          remove(box.key)
                        }
                      }}
                    />
                    {isSelected && <span class="handle" aria-hidden="true" onPointerDown={(e) => onPointerDown(e, box.key, 'resize')} />}
                  </div>
                )
              })}
            </div>
            <ErrorNote error={preview.error} />
            {preview.data && preview.data.warnings.length > 0 && (
              <ul class="warnings" aria-label="Warnings">
                {preview.data.warnings.map((w) => (
                  <li>{w.message}</li>
                ))}
              </ul>
            )}
            <p class="muted">Drag a box to move it, its corner to resize it; arrow keys nudge the selected component (Shift: 10 px), Delete removes it, Ctrl+Z undoes.</p>
          </div>
          <div class="side">
            {!selected && (
              <section class="panel" aria-labelledby="design-heading">
                <h2 id="design-heading">Design</h2>
                <div class="prop">
                  <label for="design-name">Design name</label>
                  <input id="design-name" type="text" maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
                </div>
              </section>
            )}
            <PropertiesPanel
              doc={shown}
              component={selected ? findComponent(shown, selected) : undefined}
              variation={editing === MASTER ? undefined : (variations[vIndex]?.name ?? editing)}
              inFlow={!!parentOf?.layout}
              issues={issues}
              onSet={setFields}
              onDoc={(fields) => change({ ...doc, ...fields })}
              onDelete={remove}
            />
            <LayersPanel doc={doc} selected={selected} locked={locked} onSelect={setSelected} onChange={change} onLock={toggleLock} />
            <VariationsPanel doc={doc} editing={editing} onEdit={setEditing} onChange={change} errors={errors} />
          </div>
        </div>
      )}
    </div>
  )
}
