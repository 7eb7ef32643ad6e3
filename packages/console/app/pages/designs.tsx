// Designs: a gallery of the account's designs with server-rendered thumbnails, search and pages.
import { useState } from 'preact/hooks'
import { api, query, type Design, type DesignSummary, type Page, type Preview } from '../api.js'
import { navigate } from '../router.js'
import { ErrorNote, formatDate, Link, useDebounced, useLoad } from '../ui.js'

const PER_PAGE = 12

/** Pages of 100 until `name` matches enough, for a search the list endpoint does not do itself. */
async function search(term: string): Promise<Page<DesignSummary>> {
  const found: DesignSummary[] = []
  for (let page = 1; page <= 20; page++) {
    const answer = await api<Page<DesignSummary>>(`/designs/v2${query({ $page: page, $limit: 100 })}`)
    found.push(...answer.docs.filter((d) => d.name.toLowerCase().includes(term.toLowerCase())))
    if (!answer.hasNextPage) break
  }
  return { docs: found, page: 1, totalPages: 1, hasNextPage: false, totalDocs: found.length }
}

export function DesignsPage() {
  const [page, setPage] = useState(1)
  const [term, setTerm] = useState('')
  const settled = useDebounced(term.trim(), 300)
  const list = useLoad(() => (settled ? search(settled) : api<Page<DesignSummary>>(`/designs/v2${query({ $page: page, $limit: PER_PAGE })}`)), [page, settled])
  const [creating, setCreating] = useState<unknown>(null)

  const create = async () => {
    setCreating(null)
    try {
      const created = await api<Design>('/designs/v2', { method: 'POST', json: { name: 'Untitled card', document: { version: 2, width: 1200, height: 630, background: '#ffffff', components: [] } } })
      navigate(`designs/${created._id}/edit`)
    } catch (error) {
      setCreating(error)
    }
  }

  return (
    <section>
      <div class="page-head">
        <h1 tabIndex={-1}>Designs</h1>
        <button type="button" class="primary" onClick={create}>
          New design
        </button>
      </div>
      <ErrorNote error={creating} />
      <label class="search">
        Search designs
        <input type="search" value={term} onInput={(e) => (setTerm(e.currentTarget.value), setPage(1))} />
      </label>
      <ErrorNote error={list.error} />
      {list.data && list.data.docs.length === 0 && <p>{settled ? `No design is named like “${settled}”.` : 'No designs yet: start one with New design.'}</p>}
      <ul class="gallery" aria-busy={list.loading}>
        {list.data?.docs.map((d) => <DesignCard key={d._id} summary={d} />)}
      </ul>
      {list.data && list.data.totalPages > 1 && (
        <nav class="pager" aria-label="Pages">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous page
          </button>
          <span>
            Page {list.data.page} of {list.data.totalPages}
          </span>
          <button type="button" disabled={!list.data.hasNextPage} onClick={() => setPage(page + 1)}>
            Next page
          </button>
        </nav>
      )}
    </section>
  )
}

function DesignCard({ summary }: { summary: DesignSummary }) {
  const design = useLoad(() => api<Design>(`/designs/v2/${encodeURIComponent(summary._id)}`), [summary._id, summary.updatedAt])
  const thumb = useLoad(() => api<Preview>(`/designs/v2/${encodeURIComponent(summary._id)}/preview`, { method: 'POST', json: { maxSide: 360, source: design.data?.design ? 'published' : 'draft' } }), [summary._id, summary.updatedAt, design.data?._id])
  const doc = design.data?.draft ?? design.data?.design
  const status = !design.data ? '' : design.data.design === null ? 'Draft' : design.data.draft ? 'Published, with draft changes' : 'Published'
  return (
    <li class="card">
      <Link href={`designs/${summary._id}`}>
        <div class="thumb">{thumb.data ? <img src={thumb.data.image} alt="" width={thumb.data.width} height={thumb.data.height} /> : <span class="muted">{thumb.error ? 'No preview' : 'Rendering…'}</span>}</div>
        <strong>{summary.name}</strong>
      </Link>
      <span class="muted">
        {doc?.width && doc.height ? `${doc.width} × ${doc.height}` : ''} {status && <span class={`badge ${design.data?.design ? 'published' : 'draft'}`}>{status}</span>}
      </span>
      <span class="muted">Updated {formatDate(summary.updatedAt)}</span>
    </li>
  )
}
