// One design: its Playground (try overrides, copy render links) and its visual editor.
import { api, type Design, type RenderConfig } from '../api.js'
import { ErrorNote, Link, useLoad } from '../ui.js'
import { Playground } from './playground.js'

export function DesignPage({ id, tab }: { id: string; tab: 'playground' | 'edit' }) {
  const path = `/designs/v2/${encodeURIComponent(id)}`
  const design = useLoad(() => api<Design>(path), [id])
  const config = useLoad(() => api<RenderConfig>(`${path}/config`), [id])
  const name = design.data?.name ?? 'Design'
  return (
    <section>
      <p class="crumbs">
        <Link href="designs">Designs</Link> / <span>{name}</span>
      </p>
      <h1 tabIndex={-1}>{name}</h1>
      <nav class="tabs" aria-label="Design">
        <Link href={`designs/${id}`} current={tab === 'playground'}>
          Playground
        </Link>
      </nav>
      <ErrorNote error={design.error ?? config.error} />
      {design.data && config.data && <Playground design={design.data} config={config.data} />}
    </section>
  )
}
