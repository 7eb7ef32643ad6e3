// One design: its Playground (try overrides, copy render links) and its visual editor.
import { useState } from 'preact/hooks'
import { api, type Design, type RenderConfig } from '../api.js'
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
      <h1 tabIndex={-1}>{name}</h1>
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
