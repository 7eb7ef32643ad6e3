// Paths under /console/ with the History API; the server answers every one of them with
// index.html (SPA fallback).
import { useEffect, useState } from 'preact/hooks'
import { CONSOLE_URL } from './auth.js'

const listeners = new Set<() => void>()

/** The console path of the page, e.g. `designs/abc` ('' for the root). */
export function currentPath(): string {
  const base = new URL(CONSOLE_URL).pathname
  return location.pathname.startsWith(base) ? decodeURI(location.pathname.slice(base.length)) : ''
}

/** Shows another page of the console. */
export function navigate(path: string, replace = false): void {
  const url = new URL(path, CONSOLE_URL).href
  if (replace) history.replaceState(null, '', url)
  else history.pushState(null, '', url)
  for (const listener of listeners) listener()
  window.scrollTo(0, 0)
}

/** The current path, re-rendering on navigation. */
export function usePath(): string {
  const [path, setPath] = useState(currentPath())
  useEffect(() => {
    const update = () => setPath(currentPath())
    listeners.add(update)
    window.addEventListener('popstate', update)
    return () => {
      listeners.delete(update)
      window.removeEventListener('popstate', update)
    }
  }, [])
  return path
}

/** A same-app link: a real <a href> (opens in a new tab too), navigated without a reload. */
export function onLinkClick(event: MouseEvent): void {
  const anchor = event.currentTarget as HTMLAnchorElement
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  event.preventDefault()
  navigate(anchor.getAttribute('href')!)
}
