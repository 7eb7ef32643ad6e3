// Exports: recent export jobs (status, file links) and webhook deliveries (attempts).
import { useState } from 'preact/hooks'
import { api, query, type Page } from '../api.js'
import { ErrorNote, formatDate, useLoad } from '../ui.js'

interface Attempt {
  at: string
  status?: number
  error?: string
}
interface ExportJob {
  exportId: string
  status: 'queued' | 'processing' | 'succeeded' | 'failed'
  designId: string
  delivery: string
  format: string
  createdAt: string
  finishedAt?: string
  attempts: number
  url?: string
  expiresAt?: string
  error?: { code: string; message: string }
  webhook?: { url: string; state: string; attempts: Attempt[] }
}
interface Delivery {
  exportId: string
  designId: string
  status: string
  url: string
  state: 'pending' | 'delivered' | 'failed'
  attempts: Attempt[]
  nextAttemptAt?: string
  createdAt: string
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

function Attempts({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) return <span class="muted">{delivery.nextAttemptAt ? `first attempt ${formatDate(delivery.nextAttemptAt)}` : 'none yet'}</span>
  return (
    <ol class="attempts">
      {delivery.attempts.map((a) => (
        <li>
          {formatDate(a.at)}: {a.status !== undefined ? `HTTP ${a.status}` : ''}
          {a.error ? ` ${a.error}` : ''}
        </li>
      ))}
      {delivery.nextAttemptAt && <li class="muted">next attempt {formatDate(delivery.nextAttemptAt)}</li>}
    </ol>
  )
}

export function ExportsPage() {
  const [jobPage, setJobPage] = useState(1)
  const [deliveryPage, setDeliveryPage] = useState(1)
  const jobs = useLoad(() => api<Page<ExportJob>>(`/analytics/exports${query({ $page: jobPage, $limit: 20 })}`), [jobPage])
  const deliveries = useLoad(() => api<Page<Delivery>>(`/settings/webhook-deliveries${query({ $page: deliveryPage, $limit: 20 })}`), [deliveryPage])
  return (
    <section>
      <h1 tabIndex={-1}>Exports</h1>
      <h2>Export jobs</h2>
      <ErrorNote error={jobs.error} />
      {jobs.data && jobs.data.docs.length === 0 && <p>No export jobs yet. Jobs are started through the API: POST /designs/v2/{'{id}'}/export/jobs.</p>}
      {jobs.data && jobs.data.docs.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Status</th>
                <th scope="col">Format</th>
                <th scope="col">Queued</th>
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
                    {j.attempts > 1 ? ` after ${j.attempts} runs` : ''}
                    {j.error ? <span class="error-text"> {j.error.message}</span> : ''}
                  </td>
                  <td>
                    {j.format}, {j.delivery}
                  </td>
                  <td>{formatDate(j.createdAt)}</td>
                  <td>
                    {j.url ? (
                      <a href={j.url} aria-label={`Open the file of ${j.exportId}`}>
                        Open file
                      </a>
                    ) : (
                      '–'
                    )}
                    {j.expiresAt ? <span class="muted"> (until {formatDate(j.expiresAt)})</span> : ''}
                  </td>
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
                <th scope="col">Delivery</th>
                <th scope="col">Attempts</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.docs.map((d) => (
                <tr key={d.exportId}>
                  <td>
                    <code>{d.exportId}</code> <span class="muted">({d.status})</span>
                  </td>
                  <td class="break">{d.url}</td>
                  <td>
                    <span class={`badge ${d.state}`}>{d.state}</span>
                  </td>
                  <td>
                    <Attempts delivery={d} />
                  </td>
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
