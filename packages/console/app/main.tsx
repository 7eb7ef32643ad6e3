// The console's shell: sign-in, the navigation and the page of the current path.
import { render } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { completeSignIn, onAuthChange, signedIn, signIn, signOut } from './auth.js'
import { DesignsPage } from './pages/designs.js'
import { DesignPage } from './pages/design.js'
import { ExportsPage } from './pages/exports.js'
import { KeysPage } from './pages/keys.js'
import { UsagePage } from './pages/usage.js'
import { currentPath, navigate, usePath } from './router.js'
import { ErrorNote, Link } from './ui.js'
import './styles.css'

const NAV = [
  { path: 'designs', label: 'Designs' },
  { path: 'keys', label: 'API keys' },
  { path: 'usage', label: 'Usage' },
  { path: 'exports', label: 'Exports' },
]

function Page({ path }: { path: string }) {
  const [section = 'designs', id, tab] = path.split('/').filter(Boolean)
  if (section === 'designs' && id) return <DesignPage id={id} tab={tab === 'edit' ? 'edit' : 'playground'} />
  if (section === 'keys') return <KeysPage />
  if (section === 'usage') return <UsagePage />
  if (section === 'exports') return <ExportsPage />
  return <DesignsPage />
}

function App() {
  const path = usePath()
  const [, rerender] = useState(0)
  const [state, setState] = useState<'starting' | 'ready' | 'signed-out'>('starting')
  const [error, setError] = useState<unknown>(null)
  useEffect(() => onAuthChange(() => rerender((n) => n + 1)), [])
  useEffect(() => {
    completeSignIn().then(
      (returnTo) => {
        if (returnTo !== null) {
          navigate(returnTo, true)
          setState('ready')
        } else if (new URLSearchParams(location.search).get('state') === 'signed-out') {
          history.replaceState(null, '', location.pathname)
          setState('signed-out')
        } else {
          void signIn(currentPath()).catch((e) => (setError(e), setState('signed-out')))
        }
      },
      (e) => (setError(e), setState('signed-out')),
    )
  }, [])
  useEffect(() => {
    document.querySelector<HTMLElement>('main h1')?.focus()
  }, [path])

  if (state === 'starting') return <p class="centre">Signing in…</p>
  if (!signedIn()) {
    return (
      <main class="centre signed-out">
        <h1 tabIndex={-1}>Litho Console</h1>
        <p>Design cards, try overrides, copy render links, manage render keys and read your usage.</p>
        <ErrorNote error={error} />
        <button type="button" class="primary" onClick={() => void signIn(currentPath())}>
          Sign in
        </button>
      </main>
    )
  }
  const section = path.split('/')[0] || 'designs'
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Litho</span>
        <nav aria-label="Console">
          {NAV.map((item) => (
            <Link href={item.path} current={section === item.path}>
              {item.label}
            </Link>
          ))}
        </nav>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main id="main">
        <Page path={path} />
      </main>
    </>
  )
}

render(<App />, document.getElementById('app')!)
