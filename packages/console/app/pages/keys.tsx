// API keys: the render keys of the account; create one (its secret shown once), revoke one.
import { useState } from 'preact/hooks'
import { api, query, type ApiKey, type CreatedKey, type Page } from '../api.js'
import { knownKeys } from '../session.js'
import { CopyButton, ErrorNote, formatDate, useLoad } from '../ui.js'

export function KeysPage() {
  const [page, setPage] = useState(1)
  const keys = useLoad(() => api<Page<ApiKey>>(`/settings/api-keys${query({ $page: page, $limit: 20 })}`), [page])
  const [name, setName] = useState('')
  const [created, setCreated] = useState<CreatedKey | null>(null)
  const [problem, setProblem] = useState<unknown>(null)
  const [confirming, setConfirming] = useState<ApiKey | null>(null)

  const create = async (event: Event) => {
    event.preventDefault()
    setProblem(null)
    try {
      const key = await api<CreatedKey>('/settings/api-keys', { method: 'POST', json: name.trim() ? { name: name.trim() } : {} })
      knownKeys.set(key._id, { id: key._id, name: key.name, key: key.key, ...(key.linkSecret ? { linkSecret: key.linkSecret } : {}) })
      setCreated(key)
      setName('')
      keys.reload()
    } catch (error) {
      setProblem(error)
    }
  }
  const revoke = async (key: ApiKey) => {
    setProblem(null)
    try {
      await api(`/settings/api-keys/${encodeURIComponent(key._id)}`, { method: 'DELETE' })
      knownKeys.delete(key._id)
      if (created?._id === key._id) setCreated(null)
      setConfirming(null)
      keys.reload()
    } catch (error) {
      setProblem(error)
    }
  }

  return (
    <section>
      <h1 tabIndex={-1}>API keys</h1>
      <p>Render keys authenticate render URLs (<code>dma-api-key</code> header or <code>?key=</code>). Each key’s secret is shown once, when it is created.</p>
      <form class="inline-form" onSubmit={create}>
        <label for="key-name">Key name</label>
        <input id="key-name" type="text" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit" class="primary">
          Create key
        </button>
      </form>
      {created && (
        <div class="secret" role="region" aria-label="New key">
          <p>
            <strong>{created.name}</strong>: copy its secret now, it is not shown again.
          </p>
          <p>
            <label for="new-key-secret">Key secret</label>
            <input id="new-key-secret" type="text" readOnly value={created.key} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton label="Copy key" text={created.key} />
          </p>
          {created.linkSecret && (
            <p>
              <label for="new-link-secret">Link secret (to sign render links)</label>
              <input id="new-link-secret" type="text" readOnly value={created.linkSecret} onFocus={(e) => e.currentTarget.select()} />
              <CopyButton label="Copy link secret" text={created.linkSecret} />
            </p>
          )}
          <button type="button" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      <ErrorNote error={problem ?? keys.error} />
      {keys.data && keys.data.docs.length === 0 && <p>No keys yet.</p>}
      {keys.data && keys.data.docs.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Render keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.docs.map((k) => (
                <tr key={k._id}>
                  <td>{k.name}</td>
                  <td>
                    <code>{k.prefix}</code>
                  </td>
                  <td>{formatDate(k.createdAt)}</td>
                  <td>{formatDate(k.lastUsedAt)}</td>
                  <td>
                    {confirming?._id === k._id ? (
                      <span class="confirm" role="group" aria-label={`Revoke ${k.name}?`}>
                        <span>Renders with it will fail at once.</span>
                        <button type="button" class="danger" onClick={() => revoke(k)}>
                          Confirm revoke
                        </button>
                        <button type="button" onClick={() => setConfirming(null)}>
                          Cancel
                        </button>
                      </span>
                    ) : (
                      <button type="button" aria-label={`Revoke ${k.name} (${k.prefix})`} onClick={() => setConfirming(k)}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {keys.data && keys.data.totalPages > 1 && (
        <nav class="pager" aria-label="Pages">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous page
          </button>
          <span>
            Page {keys.data.page} of {keys.data.totalPages}
          </span>
          <button type="button" disabled={!keys.data.hasNextPage} onClick={() => setPage(page + 1)}>
            Next page
          </button>
        </nav>
      )}
    </section>
  )
}
