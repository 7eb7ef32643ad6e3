// The layers list: every component topmost first (a group's children indented under it), to
// select, reorder, show or hide (the document's `visible`) and lock. A lock is the editor's own
// state, kept per design in this browser's localStorage and never stored in the document: a
// locked component (or one inside a locked group) cannot be selected, dragged, resized or nudged
// on the canvas, only chosen here.
import { useState } from 'preact/hooks'
import type { DesignDocument } from '../api.js'
import { ancestors, flatten, moveComponent, updateComponent, type Component } from './editor-model.js'

const storageKey = (designId: string) => `litho-console:locked:${designId}`

/** The locked keys of a design, kept in localStorage, and a toggle. */
export function useLocks(designId: string): [Set<string>, (key: string) => void] {
  const [locked, setLocked] = useState<Set<string>>(() => {
    try {
      const stored = JSON.parse(localStorage.getItem(storageKey(designId)) ?? '[]') as unknown
      return new Set(Array.isArray(stored) ? stored.filter((k): k is string => typeof k === 'string') : [])
    } catch {
      return new Set()
    }
  })
  const toggle = (key: string) => {
    const next = new Set(locked)
    if (!next.delete(key)) next.add(key)
    setLocked(next)
    try {
      if (next.size) localStorage.setItem(storageKey(designId), JSON.stringify([...next]))
      else localStorage.removeItem(storageKey(designId))
    } catch {
      // Storage refused (private mode, quota): the lock lasts for this page only.
    }
  }
  return [locked, toggle]
}

/** Whether `key` or one of its groups is locked. */
export function isLocked(doc: DesignDocument, locked: Set<string>, key: string): boolean {
  return locked.size > 0 && (locked.has(key) || ancestors(doc, key).some((k) => locked.has(k)))
}

// 16 × 16 stroke icons: an eye (struck through when hidden), a padlock (open when unlocked).
const EYE = 'M1 8s2.5-5 7-5 7 5 7 5-2.5 5-7 5-7-5-7-5zM8 10a2 2 0 1 0 0-4 2 2 0 0 0 0 4z'
const EYE_OFF = `${EYE}M2 2l12 12`
const LOCK = 'M3.5 7.5h9v7h-9zM5.5 7.5V5a2.5 2.5 0 0 1 5 0v2.5'
const UNLOCK = 'M3.5 7.5h9v7h-9zM5.5 7.5V5a2.5 2.5 0 0 1 5 0'

function Icon({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">
      <path d={d} />
    </svg>
  )
}

export interface LayersProps {
  doc: DesignDocument
  selected: string | null
  locked: Set<string>
  onSelect: (key: string) => void
  onChange: (d: DesignDocument) => void
  onLock: (key: string) => void
}

export function LayersPanel({ doc, selected, locked, onSelect, onChange, onLock }: LayersProps) {
  // Topmost first, as layer lists show them (the document paints the first at the bottom); a
  // group's children stay under their group.
  const topmostFirst = (list: Component[] = []): Component[] => [...list].reverse().map((c) => (c.children ? { ...c, children: topmostFirst(c.children) } : c))
  const layers = flatten(topmostFirst(doc.components as Component[]))
  return (
    <section class="panel" aria-labelledby="layers-heading">
      <h2 id="layers-heading">Layers</h2>
      {layers.length === 0 && <p class="muted">Empty canvas: add text, a shape, an image, a code or a group.</p>}
      <ul class="layers">
        {layers.map(({ component, depth }) => {
          const key = component.key
          const hidden = component.visible === false
          const lock = locked.has(key)
          return (
            <li class={`${selected === key ? 'selected' : ''}${hidden ? ' hidden' : ''}`} style={{ paddingLeft: `${depth}rem` }}>
              <button type="button" class="layer" aria-pressed={selected === key} onClick={() => onSelect(key)}>
                {key} <span class="muted">{component.type}</span>
                {hidden && <span class="muted"> · hidden</span>}
                {lock && <span class="muted"> · locked</span>}
              </button>
              <button type="button" class="icon" aria-label={`Bring ${key} forward`} onClick={() => onChange(moveComponent(doc, key, 1))}>
                ↑
              </button>
              <button type="button" class="icon" aria-label={`Send ${key} backward`} onClick={() => onChange(moveComponent(doc, key, -1))}>
                ↓
              </button>
              <button type="button" class="icon" aria-label={`Hide ${key}`} aria-pressed={hidden} title={hidden ? 'Hidden: press to show' : 'Hide'} onClick={() => onChange(updateComponent(doc, key, { visible: hidden ? undefined : false }))}>
                <Icon d={hidden ? EYE_OFF : EYE} />
              </button>
              <button type="button" class="icon" aria-label={`Lock ${key}`} aria-pressed={lock} title={lock ? 'Locked: press to unlock' : 'Lock'} onClick={() => onLock(key)}>
                <Icon d={lock ? LOCK : UNLOCK} />
              </button>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
