// One design: its Playground (try overrides, copy render links), its visual editor, and Delete
// design (after a confirmation dialog).
import { useRef, useState } from 'preact/hooks'
import { api, type Design, type RenderConfig } from '../api.js'
import { navigate } from '../router.js'
import { ErrorNote, Link, useLoad } from '../ui.js'
import { Editor } from './editor.js'
import { Playground } from './playground.js'

export function DesignPage({ id, tab }: { id: string; tab: 'playground' | 'edit' }) {
  const path = `/designs/v2/${encodeURIComponent(id)}`
  const loaded = useLoad(() => api<Design>(path), [id])
  const config = useLoad(() => api<RenderConfig>(`${path}/config`), [id])
  const [saved, setSaved] = useState<Design | null>(null)
  const design = saved?._id === id ? saved : loaded.data
  const name = design?.name ?? 'Design'
  const status = !design ? '' : design.design === null ? 'Draft, not published' : design.draft ? 'Published, with unpublished changes' : 'Published'
  return (
    <section>
      <p class="crumbs">
        <Link href="designs">Designs</Link> / <span>{name}</span>
      </p>
      <div class="page-head">
        <h1 tabIndex={-1}>{name}</h1>
        {design && <DeleteDesign design={design} />}
      </div>
      <p class="muted">{status}</p>
      <nav class="tabs" aria-label="Design">
        <Link href={`designs/${id}`} current={tab === 'playground'}>
          Playground
        </Link>
        <Link href={`designs/${id}/edit`} current={tab === 'edit'}>
          Edit
        </Link>
      </nav>
      <ErrorNote error={loaded.error ?? config.error} />
      {tab === 'edit' && design && <Editor key={design._id} design={design} onSaved={(d) => (setSaved(d), config.reload())} />}
      {tab === 'playground' && design && config.data && <Playground key={`${design.updatedAt}`} design={design} config={config.data} />}
    </section>
  )
}

/** `Delete design`: a modal dialog asks first (Escape or Cancel keeps it); then DELETE /designs/v2/{id} and back to the gallery. */
function DeleteDesign({ design }: { design: Design }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const confirm = async () => {
    setBusy(true)
    setError(null)
    try {
      await api(`/designs/v2/${encodeURIComponent(design._id)}`, { method: 'DELETE' })
      dialog.current?.close()
      navigate('designs')
    } catch (e) {
      setError(e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <button type="button" class="danger-outline" onClick={() => (setError(null), dialog.current?.showModal())}>
        Delete design
      </button>
      <dialog ref={dialog} aria-labelledby="delete-heading" aria-describedby="delete-text">
        <h2 id="delete-heading">Delete “{design.name}”?</h2>
        <p id="delete-text">Its published version and its draft are deleted and its render URL stops working at once. This cannot be undone.</p>
        <ErrorNote error={error} />
        <div class="dialog-actions">
          <button type="button" autofocus onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" class="danger" disabled={busy} onClick={confirm}>
            Delete for good
          </button>
        </div>
      </dialog>
    </>
  )
}
