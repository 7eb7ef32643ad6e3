// Usage: renders over a chosen range (GET /analytics/api), this month's quota and the storage held.
import { useState } from 'preact/hooks'
import { api, query } from '../api.js'
import { ErrorNote, formatBytes, useLoad } from '../ui.js'

interface Usage {
  groupBy: string
  start: string
  end: string
  total: number
  buckets: Array<{ start: string; end: string; count: number }>
  storage: { usedBytes: number; limitBytes: number | null }
  quota: { limit: number | null; used: number; remaining: number | null; resetAt: string }
}

const RANGES = [
  { id: '24h', label: 'Last 24 hours', ms: 86_400_000, groupBy: 'hour' },
  { id: '7d', label: 'Last 7 days', ms: 7 * 86_400_000, groupBy: 'day' },
  { id: '30d', label: 'Last 30 days', ms: 30 * 86_400_000, groupBy: 'day' },
  { id: '12w', label: 'Last 12 weeks', ms: 84 * 86_400_000, groupBy: 'week' },
  { id: '12m', label: 'Last 12 months', ms: 365 * 86_400_000, groupBy: 'month' },
]
const GROUPS = ['hour', 'day', 'week', 'month']

function label(iso: string, groupBy: string): string {
  const d = new Date(iso)
  if (groupBy === 'hour') return d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
  if (groupBy === 'month') return d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', timeZone: 'UTC' })
  return d.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' })
}

function Chart({ usage }: { usage: Usage }) {
  const max = Math.max(1, ...usage.buckets.map((b) => b.count))
  const width = 640
  const height = 200
  const bar = width / Math.max(1, usage.buckets.length)
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height + 20}`} role="img" aria-label={`Renders by ${usage.groupBy}: ${usage.total} in total`} preserveAspectRatio="none">
        {usage.buckets.map((b, i) => {
          const h = (b.count / max) * height
          return (
            <rect x={i * bar + 1} y={height - h} width={Math.max(1, bar - 2)} height={h} class="bar">
              <title>{`${label(b.start, usage.groupBy)}: ${b.count}`}</title>
            </rect>
          )
        })}
        <line x1="0" x2={width} y1={height} y2={height} class="axis" />
      </svg>
      <figcaption>
        {usage.total} {usage.total === 1 ? "render" : "renders"} from {label(usage.start, usage.groupBy)} to {label(usage.end, usage.groupBy)}, by {usage.groupBy}; the busiest {usage.groupBy} had {Math.max(0, ...usage.buckets.map((b) => b.count))}.
      </figcaption>
    </figure>
  )
}

export function UsagePage() {
  const [range, setRange] = useState('7d')
  const [groupBy, setGroupBy] = useState('day')
  const chosen = RANGES.find((r) => r.id === range)!
  const usage = useLoad(() => {
    const end = new Date()
    return api<Usage>(`/analytics/api${query({ start: new Date(end.getTime() - chosen.ms).toISOString(), end: end.toISOString(), groupBy })}`)
  }, [range, groupBy])
  const quota = usage.data?.quota
  const storage = usage.data?.storage

  return (
    <section>
      <h1 tabIndex={-1}>Usage</h1>
      <div class="stats">
        <div class="stat">
          <h2>Renders this month</h2>
          <p class="big">{quota ? quota.used : '…'}</p>
          {quota && (
            <p class="muted">
              {quota.limit === null ? 'No render limit.' : `of ${quota.limit}: ${quota.remaining} remaining.`} Resets {new Date(quota.resetAt).toLocaleDateString(undefined, { dateStyle: 'long', timeZone: 'UTC' })} (UTC).
            </p>
          )}
          {quota && quota.limit !== null && <progress max={quota.limit} value={Math.min(quota.used, quota.limit)} aria-label="Quota used" />}
        </div>
        <div class="stat">
          <h2>Storage</h2>
          <p class="big">{storage ? formatBytes(storage.usedBytes) : '…'}</p>
          <p class="muted">{storage ? (storage.limitBytes === null ? 'No storage limit on your plan.' : `of ${formatBytes(storage.limitBytes)}.`) : ''}</p>
        </div>
      </div>
      <h2>Renders over time</h2>
      <div class="controls">
        <label>
          Range
          <select value={range} onChange={(e) => (setRange(e.currentTarget.value), setGroupBy(RANGES.find((r) => r.id === e.currentTarget.value)!.groupBy))}>
            {RANGES.map((r) => (
              <option value={r.id}>{r.label}</option>
            ))}
          </select>
        </label>
        <label>
          Group by
          <select value={groupBy} onChange={(e) => setGroupBy(e.currentTarget.value)}>
            {GROUPS.map((g) => (
              <option value={g}>{g}</option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNote error={usage.error} />
      {usage.data && <Chart usage={usage.data} />}
    </section>
  )
}
