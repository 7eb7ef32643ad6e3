// Small shared pieces: links, copy buttons, errors, a debounce hook.
import type { ComponentChildren } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { onLinkClick } from './router.js'

export function Link(props: { href: string; children: ComponentChildren; current?: boolean; class?: string }) {
  return (
    <a href={props.href} onClick={onLinkClick} class={props.class} aria-current={props.current ? 'page' : undefined}>
      {props.children}
    </a>
  )
}

/** A button that copies `text` (or what `text()` returns) and says so. */
export function CopyButton(props: { label: string; text: string | (() => Promise<string>); disabled?: boolean }) {
  const [done, setDone] = useState<string | null>(null)
  const copy = async () => {
    try {
      const value = typeof props.text === 'string' ? props.text : await props.text()
      await navigator.clipboard.writeText(value)
      setDone('Copied')
    } catch (error) {
      setDone(`Not copied: ${(error as Error).message}`)
    }
    setTimeout(() => setDone(null), 2000)
  }
  return (
    <span class="copy">
      <button type="button" onClick={copy} disabled={props.disabled}>
        {props.label}
      </button>
      <span role="status" class="muted">
        {done ?? ''}
      </span>
    </span>
  )
}

export function ErrorNote(props: { error: unknown }) {
  if (!props.error) return null
  return (
    <p role="alert" class="error">
      {(props.error as Error).message ?? String(props.error)}
    </p>
  )
}

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

/** Runs `load` when `deps` change; returns its result, error and a reload. Stale answers are dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | undefined; error: unknown; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: null, loading: true })
  const [tick, setTick] = useState(0)
  const generation = useRef(0)
  useEffect(() => {
    const mine = ++generation.current
    setState((s) => ({ ...s, loading: true }))
    load().then(
      (data) => mine === generation.current && setState({ data, error: null, loading: false }),
      (error) => mine === generation.current && setState((s) => ({ data: s.data, error, loading: false })),
    )
  }, [...deps, tick])
  return { ...state, reload: () => setTick((t) => t + 1) }
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return 'never'
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KiB', 'MiB', 'GiB', 'TiB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`
}
