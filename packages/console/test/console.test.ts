// The console in a real browser against a real `litho serve`: sign-in through the OAuth pages,
// the gallery, the playground's live preview, a render key from creation to revocation, and the
// usage chart counting the renders just made. Screenshots go to docs/console/.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PIXELS_DIFFERING, SHOTS, apiToken, signIn, startConsole, type ConsoleFixture } from './_console.js'

let c: ConsoleFixture
// Completion webhooks of the export job go to this receiver on loopback.
const hooks: Server = createServer((_req, res) => res.writeHead(200).end())
beforeAll(async () => {
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve))
  c = await startConsole('litho-console-', { LITHO_ALLOW_NETWORKS: '127.0.0.0/8', LITHO_ALLOW_HTTP: '1' })
})
afterAll(async () => {
  hooks.close()
  await c?.close()
})

it('signs in through the OAuth pages and shows the seeded design in the gallery', async () => {
  const { page } = c
  await signIn(page, c.url)
  for (const name of ['Designs', 'API keys', 'Usage', 'Exports']) await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).isVisible()).resolves.toBe(true)
  await page.getByRole('link', { name: /^small/ }).waitFor()
  await page.locator('.thumb img').first().waitFor()
  await page.screenshot({ path: join(SHOTS, 'designs.png') })
})

it('changes the Preview image when title.text changes', async () => {
  const { page } = c
  await page.getByRole('link', { name: /^small/ }).click()
  const preview = page.getByRole('img', { name: 'Preview', exact: true })
  await preview.waitFor()
  const before = await preview.getAttribute('src')
  await page.getByLabel('title.text').fill('A different title')
  await expect.poll(() => preview.getAttribute('src'), { timeout: 15_000 }).not.toBe(before)
  const after = (await preview.getAttribute('src'))!
  const differing = await page.evaluate<number>(`(${PIXELS_DIFFERING})(${JSON.stringify([before, after])})`)
  expect(differing).toBeGreaterThan(50)
  await page.screenshot({ path: join(SHOTS, 'playground.png'), fullPage: true })
})

it('creates a key whose lk_ secret renders, copies its GET URL and signed link, and revoking it stops all three', async () => {
  const { page } = c
  await page.getByRole('link', { name: 'API keys', exact: true }).click()
  await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor()
  await page.getByLabel('Key name').fill('Console test')
  await page.getByRole('button', { name: 'Create key' }).click()
  const secret = await page.getByLabel('Key secret').inputValue()
  expect(secret).toMatch(/^lk_/)
  await page.screenshot({ path: join(SHOTS, 'api-keys.png') })
  const render = `${c.url}/v1/${c.renderCode}?format=png&key=${encodeURIComponent(secret)}`
  const ok = await fetch(render)
  expect(ok.status).toBe(200)
  expect(ok.headers.get('content-type')).toBe('image/png')

  // The playground copies links for the key just created (its secrets are known in this tab).
  await page.getByRole('link', { name: 'Designs', exact: true }).click()
  await page.getByRole('link', { name: /^small/ }).click()
  const keySelect = page.getByLabel('Render key')
  await keySelect.selectOption((await keySelect.locator('option', { hasText: 'Console test' }).getAttribute('value'))!)
  const clipboard = () => page.evaluate<string>('navigator.clipboard.readText()')
  await page.getByRole('button', { name: 'Copy GET URL' }).click()
  await expect.poll(clipboard).toContain(secret)
  const getUrl = await clipboard()
  expect((await fetch(getUrl)).status).toBe(200)
  await page.getByRole('button', { name: 'Copy signed link' }).click()
  await expect.poll(clipboard).toContain('sig=')
  const signed = await clipboard()
  expect(signed).not.toContain('lk_')
  expect((await fetch(signed)).status).toBe(200)

  await page.getByRole('link', { name: 'API keys', exact: true }).click()
  await page.getByRole('button', { name: /^Revoke Console test/ }).click()
  await page.getByRole('button', { name: 'Confirm revoke' }).click()
  await page.getByRole('cell', { name: 'Console test', exact: true }).waitFor({ state: 'detached' })
  expect((await fetch(render)).status).toBe(401)
  expect((await fetch(getUrl)).status).toBe(401)
  expect((await fetch(signed)).status).toBe(403)
})

it('shows the renders just made on the usage chart', async () => {
  const { page } = c
  await page.getByRole('link', { name: 'Usage', exact: true }).click()
  await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor()
  await page.getByLabel('Range').selectOption({ label: 'Last 24 hours' })
  const chart = page.getByRole('img', { name: /^Renders by hour: \d+ in total/ })
  await chart.waitFor()
  await page.getByText(/of 10000: \d+ remaining/).waitFor()
  const total = Number(/: (\d+) in total/.exec((await chart.getAttribute('aria-label'))!)![1])
  expect(total).toBeGreaterThanOrEqual(1)
  await page.screenshot({ path: join(SHOTS, 'usage.png') })
})

it('lists export jobs with their file, and their webhook deliveries with the attempts', async () => {
  const { page } = c
  const token = await apiToken(c.url)
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const { docs } = (await (await fetch(`${c.url}/designs/v2`, { headers: auth })).json()) as { docs: Array<{ _id: string }> }
  const webhookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`
  const queued = await fetch(`${c.url}/designs/v2/${docs[0]!._id}/export/jobs`, { method: 'POST', headers: auth, body: JSON.stringify({ delivery: 'hosted', webhookUrl }) })
  expect(queued.status).toBe(202)
  const { exportId } = (await queued.json()) as { exportId: string }
  await expect
    .poll(async () => ((await (await fetch(`${c.url}/analytics/exports/${exportId}`, { headers: auth })).json()) as { webhook?: { state: string } }).webhook?.state, { timeout: 20_000 })
    .toBe('delivered')
  await page.getByRole('link', { name: 'Exports', exact: true }).click()
  await page.getByRole('heading', { name: 'Exports', level: 1 }).waitFor()
  const job = page.getByRole('row').filter({ hasText: exportId }).first()
  await job.getByText('succeeded').waitFor()
  const file = await job.getByRole('link', { name: `Open the file of ${exportId}` }).getAttribute('href')
  expect((await fetch(file!)).headers.get('content-type')).toBe('image/png')
  const delivery = page.getByRole('row').filter({ hasText: webhookUrl })
  await delivery.getByText('delivered').waitFor()
  await delivery.getByText(/HTTP 200/).waitFor()
  await page.screenshot({ path: join(SHOTS, 'exports.png') })
})

it('edits visually: a drag and Save draft change the draft, not the published render until Publish', async () => {
  const { page } = c
  const token = await apiToken(c.url)
  const render = async () => Buffer.from(await (await fetch(`${c.url}/v1/${c.renderCode}?format=png&key=${encodeURIComponent(c.key)}`)).arrayBuffer())
  const published = await render()
  await page.getByRole('link', { name: 'Designs', exact: true }).click()
  await page.getByRole('link', { name: /^small/ }).click()
  await page.getByRole('link', { name: 'Edit', exact: true }).click()
  await page.getByRole('img', { name: 'Canvas' }).waitFor()
  const id = new URL(page.url()).pathname.split('/')[3]!
  const title = page.getByRole('button', { name: 'title (text)' })
  const box = (await title.boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  await page.mouse.move(box.x + box.width / 2 + 90, box.y + box.height / 2 + 120, { steps: 6 })
  await page.mouse.up()
  await expect.poll(async () => Number(await page.getByLabel('X', { exact: true }).inputValue())).toBeGreaterThan(10)
  await title.press('ArrowRight')
  const x = Number(await page.getByLabel('X', { exact: true }).inputValue())
  const y = Number(await page.getByLabel('Y', { exact: true }).inputValue())
  expect(y).toBeGreaterThan(10)
  await page.getByRole('button', { name: 'Save draft' }).click()
  await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor()
  const stored = (await (await fetch(`${c.url}/designs/v2/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { design: { components: Array<{ key: string; x: number; y: number }> }; draft: { components: Array<{ key: string; x: number; y: number }> } }
  expect(stored.draft.components.find((k) => k.key === 'title')).toMatchObject({ x, y })
  expect(stored.design.components.find((k) => k.key === 'title')).toMatchObject({ x: 10, y: 10 })
  expect((await render()).equals(published)).toBe(true)
  await page.getByRole('button', { name: 'Publish' }).click()
  await page.getByRole('status').filter({ hasText: 'Published' }).waitFor()
  expect((await render()).equals(published)).toBe(false)
})

it('takes a new design from an empty canvas to a published render link, without JSON', async () => {
  const { page } = c
  await page.getByRole('link', { name: 'API keys', exact: true }).click()
  await page.getByLabel('Key name').fill('Launch')
  await page.getByRole('button', { name: 'Create key' }).click()
  await page.getByLabel('Key secret').waitFor()
  await page.getByRole('link', { name: 'Designs', exact: true }).click()
  await page.getByRole('button', { name: 'New design' }).click()
  await page.getByRole('heading', { name: 'Untitled card', level: 1 }).waitFor()
  await page.getByLabel('Design name').fill('Launch card')
  await page.getByRole('button', { name: 'Add shape' }).click()
  await page.getByLabel('Fill', { exact: true }).fill('#f97316')
  await page.getByRole('button', { name: 'Add text' }).click()
  await page.getByLabel('Text', { exact: true }).fill('Launch day')
  await page.getByRole('button', { name: 'text (text)' }).waitFor()
  // A number typed and Publish clicked at once: the edit is in what is published (it used to
  // be committed on blur, after Publish had read the document).
  await page.getByLabel('Font size').fill('64')
  await page.getByRole('button', { name: 'Publish' }).click()
  await page.getByRole('status').filter({ hasText: 'Published' }).waitFor()
  const token = await apiToken(c.url)
  const { docs } = (await (await fetch(`${c.url}/designs/v2`, { headers: { authorization: `Bearer ${token}` } })).json()) as { docs: Array<{ _id: string; name: string }> }
  const published = (await (await fetch(`${c.url}/designs/v2/${docs.find((d) => d.name === 'Launch card')!._id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { design: { components: Array<{ type: string; fontSize?: number }> } }
  expect(published.design.components.find((component) => component.type === 'text')?.fontSize).toBe(64)
  await page.getByRole('heading', { name: 'Launch card', level: 1 }).waitFor()
  await page.getByRole('button', { name: 'text (text)' }).click()
  await page.screenshot({ path: join(SHOTS, 'editor.png') })
  await page.getByRole('link', { name: 'Playground', exact: true }).click()
  await expect.poll(() => page.getByLabel('text.text').inputValue()).toBe('Launch day')
  await page.getByLabel('text.text').fill('Launch night')
  await page.getByRole('button', { name: 'Copy GET URL' }).click()
  await expect.poll(() => page.evaluate<string>('navigator.clipboard.readText()')).toContain('text.text=Launch+night')
  const link = await page.evaluate<string>('navigator.clipboard.readText()')
  const image = await fetch(link)
  expect(image.status).toBe(200)
  const png = Buffer.from(await image.arrayBuffer())
  // The IHDR: 1200 × 630, the new card's size.
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630])
  // The gallery finds it by name.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Designs', exact: true }).click()
  await page.getByLabel('Search designs').fill('launch')
  await page.getByRole('link', { name: /^small/ }).waitFor({ state: 'detached' })
  await page.getByRole('link', { name: /^Launch card/ }).waitFor()
})

it('fits a phone screen: no sideways scrolling on any page', async () => {
  const { page } = c
  await page.setViewportSize({ width: 390, height: 844 })
  const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')
  for (const name of ['API keys', 'Usage', 'Exports', 'Designs']) {
    await page.getByRole('link', { name, exact: true }).click()
    await page.getByRole('heading', { name, level: 1 }).waitFor()
    expect(await overflow(), name).toBeLessThanOrEqual(0)
  }
  await page.getByRole('link', { name: /^small/ }).click()
  await page.getByRole('img', { name: 'Preview', exact: true }).waitFor()
  expect(await overflow(), 'Playground').toBeLessThanOrEqual(0)
  await page.screenshot({ path: join(SHOTS, 'phone-playground.png') })
  await page.getByRole('link', { name: 'Edit', exact: true }).click()
  await page.getByRole('img', { name: 'Canvas' }).waitFor()
  expect(await overflow(), 'Edit').toBeLessThanOrEqual(0)
  await page.setViewportSize({ width: 1280, height: 860 })
})

it('keeps tokens in memory: a reload signs in again through the session, and expiry refreshes them by rotation', async () => {
  const { page } = c
  const refreshes: string[] = []
  // Counted once the answer is in: the page stores the new tokens only then, so the clock may
  // move on (counting the request alone raced the next fast-forward on a loaded machine).
  page.on('requestfinished', (request) => {
    const body = new URLSearchParams(request.postData() ?? '')
    if (request.url().includes('/oauth2/token') && body.get('grant_type') === 'refresh_token') refreshes.push(body.get('refresh_token')!)
  })
  // Only the page's clock moves: its tokens look expired to it, not to the server.
  await page.clock.install()
  await page.goto(`${c.url}/console/usage`)
  await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor()
  expect(await page.evaluate<number>('sessionStorage.length')).toBe(0)
  for (const [i, name] of [[1, 'API keys'], [2, 'Exports']] as const) {
    await page.clock.fastForward('02:00:00')
    await page.getByRole('link', { name, exact: true }).click()
    await page.getByRole('heading', { name, level: 1 }).waitFor()
    await expect.poll(() => refreshes.length, { timeout: 15_000 }).toBe(i)
    await expect(page.getByRole('alert').count()).resolves.toBe(0)
  }
  // Rotation: the second refresh spent the token the first one returned.
  expect(refreshes[0]).not.toBe(refreshes[1])
})

it('signs out: the refresh token is revoked and the sign-in session ends', async () => {
  const { page } = c
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.getByRole('button', { name: 'Sign in' }).waitFor()
  expect(new URL(page.url()).pathname).toBe('/console/')
  // The whole run happened under the console's CSP without a violation.
  expect(c.errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([])
})
