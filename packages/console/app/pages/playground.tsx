// The Playground: one labelled input per dynamic field, a live preview, and the render link in
// every form a caller needs (GET URL, signed link, curl, JavaScript, the MCP call), plus download.
import { signRenderUrl } from '@litho/core/signing'
import { useMemo, useState } from 'preact/hooks'
import { api, call, query, type ApiKey, type Design, type Page, type Preview, type RenderConfig } from '../api.js'
import { knownKeys, newestKnownKey } from '../session.js'
import { curlSnippet, javascriptSnippet, mcpSnippet, renderUrl } from '../snippets.js'
import { CopyButton, ErrorNote, useDebounced, useLoad } from '../ui.js'

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i
const FORMATS = ['png', 'jpeg', 'webp', 'pdf']

type Kind = 'colour' | 'number' | 'image' | 'text'

/** What input suits a field: by its current value, and its name for image sources. */
export function kindOf(path: string, value: unknown): Kind {
  if (typeof value === 'number') return 'number'
  if (typeof value === 'string' && HEX.test(value)) return 'colour'
  if (path.endsWith('.src') || path.endsWith('.image') || path.endsWith('.url')) return 'image'
  return 'text'
}

/** `#abc` → `#aabbcc`, `#aabbccdd` → `#aabbcc`: what <input type=color> takes. */
function sixDigits(hex: string): string {
  if (hex.length === 4) return `#${[...hex.slice(1)].map((c) => c + c).join('')}`.toLowerCase()
  return hex.slice(0, 7).toLowerCase()
}

function Field({ path, initial, value, onChange }: { path: string; initial: unknown; value: string; onChange: (v: string) => void }) {
  const kind = kindOf(path, initial)
  const id = `field-${path}`
  const input =
    kind === 'colour' ? (
      <input id={id} type="color" value={sixDigits(value || '#000000')} onInput={(e) => onChange(e.currentTarget.value)} />
    ) : kind === 'number' ? (
      <input id={id} type="number" step="any" value={value} onInput={(e) => onChange(e.currentTarget.value)} />
    ) : kind === 'image' ? (
      <input id={id} type="url" inputMode="url" value={value} onInput={(e) => onChange(e.currentTarget.value)} />
    ) : (
      <input id={id} type="text" value={value} onInput={(e) => onChange(e.currentTarget.value)} />
    )
  return (
    <div class={`field field-${kind}`}>
      <label for={id} class="path">{path}</label>
      {input}
      {kind === 'colour' && <code class="muted">{value}</code>}
      {kind === 'image' && value && <img class="field-thumb" src={value} alt={`${path} thumbnail`} />}
    </div>
  )
}

export function Playground({ design, config }: { design: Design; config: RenderConfig }) {
  const defaults = config.data.flatten
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, v === null || v === undefined ? '' : String(v)])))
  const [variation, setVariation] = useState('master')
  const [format, setFormat] = useState('png')
  const [quality, setQuality] = useState('')
  const source = design.design ? 'published' : 'draft'

  /** Only the fields that differ from the design: what a render needs to be sent. */
  const overrides = useMemo(() => {
    const changed: Record<string, string | number> = {}
    for (const [path, value] of Object.entries(values)) {
      const initial = defaults[path]
      if (value === String(initial ?? '')) continue
      changed[path] = typeof initial === 'number' && value !== '' && Number.isFinite(Number(value)) ? Number(value) : value
    }
    return changed
  }, [values, defaults])
  const params = useMemo(() => {
    const p: Record<string, string> = Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k, String(v)]))
    if (variation !== 'master') p.variation = variation
    // Always named: a render URL without it gets the server's default format, which may differ.
    p.format = format
    if (quality && (format === 'jpeg' || format === 'webp')) p.quality = quality
    return p
  }, [overrides, variation, format, quality])

  const request = useDebounced(JSON.stringify({ overrides, variation, source }), 350)
  const preview = useLoad(() => api<Preview>(`/designs/v2/${encodeURIComponent(design._id)}/preview`, { method: 'POST', json: { ...JSON.parse(request), maxSide: 900 } }), [request])

  return (
    <div class="playground">
      <form class="fields" onSubmit={(e) => e.preventDefault()} aria-label="Overrides">
        <h2>Fields</h2>
        {Object.keys(defaults).length === 0 && <p class="muted">This design has no dynamic fields: mark a component's fields dynamic in the editor.</p>}
        {Object.entries(defaults).map(([path, initial]) => (
          <Field key={path} path={path} initial={initial} value={values[path] ?? ''} onChange={(v) => setValues((all) => ({ ...all, [path]: v }))} />
        ))}
        <h2>Output</h2>
        <div class="field">
          <label for="variation">Variation</label>
          <select id="variation" value={variation} onChange={(e) => setVariation(e.currentTarget.value)}>
            {config.variations.map((v) => (
              <option value={v.id}>
                {v.name} ({v.dimensions.width} × {v.dimensions.height})
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="format">Format</label>
          <select id="format" value={format} onChange={(e) => setFormat(e.currentTarget.value)}>
            {FORMATS.map((f) => (
              <option value={f}>{f}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="quality">Quality (1-100, jpeg and webp)</label>
          <input id="quality" type="number" min={1} max={100} value={quality} disabled={format !== 'jpeg' && format !== 'webp'} onInput={(e) => setQuality(e.currentTarget.value)} />
        </div>
      </form>
      <div class="preview-pane">
        <h2>Preview</h2>
        <div class="preview-frame" aria-busy={preview.loading}>
          {preview.data && <img src={preview.data.image} alt="Preview" width={preview.data.width} height={preview.data.height} />}
        </div>
        <ErrorNote error={preview.error} />
        <section aria-labelledby="warnings-heading">
          <h3 id="warnings-heading">Warnings</h3>
          {preview.data && preview.data.warnings.length === 0 ? <p class="muted">None.</p> : <ul class="warnings">{preview.data?.warnings.map((w) => <li>{w.message}</li>)}</ul>}
        </section>
        {source === 'draft' && <p class="note">Not published yet: the render URL answers 404 until you publish the design.</p>}
        <RenderLinks design={design} config={config} params={params} overrides={overrides} format={format} variation={variation} />
      </div>
    </div>
  )
}

function RenderLinks(props: { design: Design; config: RenderConfig; params: Record<string, string>; overrides: Record<string, string | number>; format: string; variation: string }) {
  const { design, config, params, format } = props
  const keys = useLoad(() => api<Page<ApiKey>>(`/settings/api-keys${query({ $limit: 100 })}`), [])
  const [keyId, setKeyId] = useState(() => newestKnownKey()?.id ?? '')
  const [, setTick] = useState(0)
  const [problem, setProblem] = useState<unknown>(null)
  const chosen = keyId || keys.data?.docs[0]?._id || ''
  const known = knownKeys.get(chosen)
  const secret = known?.key

  const newLinkSecret = async () => {
    if (!confirm('A new link secret stops every link signed with this key’s previous one. Continue?')) return
    try {
      const answer = await api<{ linkSecret: string }>(`/settings/api-keys/${encodeURIComponent(chosen)}/link-secret`, { method: 'POST' })
      const entry = knownKeys.get(chosen) ?? { id: chosen, name: keys.data?.docs.find((k) => k._id === chosen)?.name ?? chosen, key: '' }
      knownKeys.set(chosen, { ...entry, linkSecret: answer.linkSecret })
      setTick((t) => t + 1)
    } catch (error) {
      setProblem(error)
    }
  }
  const download = async () => {
    setProblem(null)
    try {
      const search = query({ format, variation: props.variation === 'master' ? undefined : props.variation, quality: params.quality, draft: design.design ? undefined : 'true' })
      const response = await call(`/designs/v2/${encodeURIComponent(design._id)}/export${search}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(props.overrides) })
      if (!response.ok) throw new Error(((await response.json()) as { message: string }).message)
      const url = URL.createObjectURL(await response.blob())
      const anchor = Object.assign(document.createElement('a'), { href: url, download: `${design.name || 'render'}.${format === 'jpeg' ? 'jpg' : format}` })
      anchor.click()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
    } catch (error) {
      setProblem(error)
    }
  }

  return (
    <section class="links" aria-labelledby="links-heading">
      <h2 id="links-heading">Use it</h2>
      <div class="field">
        <label for="render-key">Render key</label>
        <select id="render-key" value={chosen} onChange={(e) => setKeyId(e.currentTarget.value)}>
          {keys.data?.docs.length === 0 && <option value="">No render keys: create one under API keys</option>}
          {keys.data?.docs.map((k) => (
            <option value={k._id}>
              {k.name} ({k.prefix}){knownKeys.has(k._id) ? ', secret known here' : ''}
            </option>
          ))}
        </select>
      </div>
      <p class="muted">{secret ? 'The links below carry this key’s secret: share them with care.' : 'The key’s secret is shown only when it is created; the links below leave it for you to add (dma-api-key header or ?key=).'}</p>
      <div class="copies">
        <CopyButton label="Copy GET URL" text={renderUrl(config.render, params, secret)} />
        <CopyButton
          label="Copy signed link"
          disabled={!known?.linkSecret}
          text={() => signRenderUrl({ url: renderUrl(config.render, params), keyId: chosen, secret: known!.linkSecret!, expiresAt: new Date(Date.now() + 30 * 86_400_000) })}
        />
        <CopyButton label="Copy curl" text={curlSnippet(config.render, params, secret, format)} />
        <CopyButton label="Copy JavaScript" text={javascriptSnippet(config.render, params, secret)} />
        <CopyButton label="Copy MCP get_design call" text={mcpSnippet(design._id)} />
        <button type="button" onClick={download}>
          Download
        </button>
      </div>
      {chosen && !known?.linkSecret && (
        <p>
          Signed links (valid 30 days, no secret in the URL) need the key’s link secret.{' '}
          <button type="button" onClick={newLinkSecret}>
            New link secret for this key
          </button>
        </p>
      )}
      <ErrorNote error={problem ?? keys.error} />
    </section>
  )
}
