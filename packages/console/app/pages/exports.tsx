// Exports: recent export jobs (status, file links) and webhook deliveries (attempts).
import { useState } from 'preact/hooks'
import { api, query, type Page } from '../api.js'
import { ErrorNote, formatDate, useLoad } from '../ui.js'

interface ExportJob {
  exportId: string
  status: string
  designId?: string
  format?: string
  url?: string | null
  error?: { message?: string } | string | null
  createdAt?: string
  updatedAt?: string
}
interface Delivery {
  _id?: string
  id?: string
  exportId?: string
  url?: string
  status?: string
  attempts?: Array<{ at?: string; status?: number | null; error?: string | null }> | number
  createdAt?: string
  lastAttemptAt?: string
}

function Pager({ page, data, setPage }: { page: number; data: Page<unknown>; setPage: (n: number) => void }) {
  if (data.totalPages <= 1) return null
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
        Previous page
      </button>
      <span>
        Page {data.page} of {data.totalPages}
      </span>
      <button type="button" disabled={!data.hasNextPage} onClick={() => setPage(page + 1)}>
        Next page
      </button>
    </nav>
  )
}

function attemptsOf(d: Delivery): string {
  if (typeof d.attempts === 'number') return String(d.attempts)
  if (!Array.isArray(d.attempts)) return '0'
  return d.attempts.map((a) => `${a.status ?? a.error ?? 'no answer'}${a.at ? ` at ${formatDate(a.at)}` : ''}`).join('; ') || '0'
}

export function ExportsPage() {
  const [jobPage, setJobPage] = useState(1)
  const [deliveryPage, setDeliveryPage] = useState(1)
  const jobs = useLoad(() => api<Page<ExportJob>>(`/analytics/exports${query({ page: jobPage, limit: 20 })}`), [jobPage])
  const deliveries = useLoad(() => api<Page<Delivery>>(`/settings/webhook-deliveries${query({ page: deliveryPage, limit: 20 })}`), [deliveryPage])
  return (
    <section>
      <h1 tabIndex={-1}>Exports</h1>
      <h2>Export jobs</h2>
      <ErrorNote error={jobs.error} />
      {jobs.data && jobs.data.docs.length === 0 && <p>No export jobs yet. Start one with POST /designs/v2/{'{id}'}/export/jobs (docs: exports and jobs).</p>}
      {jobs.data && jobs.data.docs.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">File</th>
              </tr>
            </thead>
            <tbody>
              {jobs.data.docs.map((j) => (
                <tr key={j.exportId}>
                  <td>
                    <code>{j.exportId}</code>
                  </td>
                  <td>
                    <span class={`badge ${j.status}`}>{j.status}</span>
                    {j.error ? ` ${typeof j.error === 'string' ? j.error : (j.error.message ?? '')}` : ''}
                  </td>
                  <td>{formatDate(j.createdAt)}</td>
                  <td>{j.url ? <a href={j.url}>Open file</a> : '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {jobs.data && <Pager page={jobPage} data={jobs.data} setPage={setJobPage} />}
      <h2>Webhook deliveries</h2>
      <ErrorNote error={deliveries.error} />
      {deliveries.data && deliveries.data.docs.length === 0 && <p>No webhook deliveries yet.</p>}
      {deliveries.data && deliveries.data.docs.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Export</th>
                <th scope="col">Webhook</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.docs.map((d) => (
                <tr key={d._id ?? d.id}>
                  <td>
                    <code>{d.exportId}</code>
                  </td>
                  <td>{d.url}</td>
                  <td>{d.status}</td>
                  <td>{attemptsOf(d)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {deliveries.data && <Pager page={deliveryPage} data={deliveries.data} setPage={setDeliveryPage} />}
    </section>
  )
}
