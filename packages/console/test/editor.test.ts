// The visual editor's components, layers and variations, and Delete design, in a real browser
// against a real `litho serve` (one for the file): QR code, barcode and group added from the
// toolbar and checked in the stored draft; a hidden layer changes the canvas; a locked one does
// not move when dragged; a variation added, patched and rendered through GET; a design deleted.
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PIXELS_DIFFERING, SHOTS, apiToken, signIn, startConsole, type ConsoleFixture } from './_console.js'

interface Stored {
  renderCode: string
  design: Doc | null
  draft?: Doc
}
interface Doc {
  width: number
  height: number
  components: Array<Record<string, unknown> & { key: string; type: string; children?: Array<{ key: string; type: string }> }>
  variations?: Array<{ id: string; name?: string; width: number; height: number; components?: Record<string, Record<string, unknown>> }>
}

let c: ConsoleFixture
let token: string
let id: string
const stored = async (): Promise<Stored> => (await (await fetch(`${c.url}/designs/v2/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as Stored
beforeAll(async () => {
  c = await startConsole('litho-console-editor-')
  token = await apiToken(c.url)
})
afterAll(async () => {
  await c?.close()
})

/** Selects component `key` through the Layers list. */
const pick = (key: string) => c.page.getByRole('region', { name: 'Layers' }).getByRole('button', { name: new RegExp(`^${key} `) }).click()
const field = (label: string) => c.page.getByLabel(label, { exact: true })

it('adds a QR code, a barcode and a group with children from the toolbar; the saved draft has them', async () => {
  const { page } = c
  await signIn(page, c.url)
  await page.getByRole('button', { name: 'New design' }).click()
  await page.getByRole('heading', { name: 'Untitled card', level: 1 }).waitFor()
  id = new URL(page.url()).pathname.split('/')[3]!
  await page.getByLabel('Design name').fill('Ticket')
  await page.getByRole('button', { name: 'Add text' }).click()
  await field('Text').fill('Summer concert')
  await field('Y').fill('40')
  await page.getByRole('button', { name: 'Add QR code' }).click()
  await field('QR value').fill('https://example.com/t/42')
  await field('X').fill('60')
  await field('Y').fill('400')
  await page.getByRole('button', { name: 'Add barcode' }).click()
  await field('Symbology').selectOption('ean13')
  await field('Barcode value').fill('4006381333931')
  await field('X').fill('780')
  await field('Y').fill('440')
  await page.getByRole('button', { name: 'Add group' }).click()
  await field('Layout direction').selectOption('column')
  await field('Layout gap').fill('8')
  // With the group selected, Add text puts the new text in it.
  await page.getByRole('button', { name: 'Add text' }).click()
  await page.getByRole('status').filter({ hasText: 'to the group group' }).waitFor()
  // Children get canvas boxes of their own (the preview's layout has them), and the Layers list
  // selects and reorders them.
  await page.getByRole('button', { name: 'group-text (text)', exact: true }).waitFor()
  await pick('group-text')
  await page.getByRole('heading', { name: 'group-text (text)' }).waitFor()
  await page.getByText("Placed by its group's auto layout").waitFor()
  const canvas = page.getByRole('img', { name: 'Canvas' })
  const before = await canvas.getAttribute('src')
  await page.getByRole('button', { name: 'Bring group-text forward' }).click()
  // The column lays the group's children out in their new order.
  await expect.poll(() => canvas.getAttribute('src'), { timeout: 15_000 }).not.toBe(before)
  await page.getByRole('button', { name: 'Save draft' }).click()
  await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor()
  const { draft } = await stored()
  const byKey = new Map(draft!.components.map((k) => [k.key, k]))
  expect(byKey.get('qrcode')).toMatchObject({ type: 'qrcode', value: 'https://example.com/t/42', x: 60, y: 400 })
  expect(byKey.get('barcode')).toMatchObject({ type: 'barcode', value: '4006381333931', symbology: 'ean13' })
  expect(byKey.get('group')).toMatchObject({ type: 'group', layout: { direction: 'column', gap: 8 } })
  expect(byKey.get('group')!.children!.map((k) => k.key)).toEqual(['text-2', 'group-text'])
  await page.screenshot({ path: join(SHOTS, 'editor-components.png') })
})

it('hides a layer (the canvas changes) and locks one (a drag on the canvas moves nothing)', async () => {
  const { page } = c
  const canvas = page.getByRole('img', { name: 'Canvas' })
  const before = (await canvas.getAttribute('src'))!
  await page.getByRole('button', { name: 'Hide qrcode' }).click()
  await expect.poll(() => canvas.getAttribute('src'), { timeout: 15_000 }).not.toBe(before)
  const differing = await page.evaluate<number>(`(${PIXELS_DIFFERING})(${JSON.stringify([before, await canvas.getAttribute('src')])})`)
  expect(differing).toBeGreaterThan(500)
  await expect(page.getByRole('button', { name: 'Hide qrcode' }).getAttribute('aria-pressed')).resolves.toBe('true')

  const title = page.getByRole('button', { name: 'text (text)', exact: true })
  // Drags from the middle of the text's box (x 240, y 40, 720 × 94 on the 1200 × 630 canvas),
  // measured on the canvas image just before (clicks in the side panels may scroll the page).
  const dragText = async () => {
    await canvas.scrollIntoViewIfNeeded()
    const image = (await canvas.boundingBox())!
    const x = image.x + (600 / 1200) * image.width
    const y = image.y + (87 / 630) * image.height
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + 120, y + 80, { steps: 6 })
    await page.mouse.up()
  }
  await page.getByRole('button', { name: 'Lock text', exact: true }).click()
  await title.waitFor({ state: 'detached' })
  expect(await page.evaluate<string | null>(`localStorage.getItem('litho-console:locked:${id}')`)).toBe('["text"]')
  await dragText()
  // Still selectable from the Layers list, where it has not moved.
  await pick('text')
  await expect(field('X').inputValue()).resolves.toBe('240')
  await expect(field('Y').inputValue()).resolves.toBe('40')
  await page.getByRole('region', { name: 'Layers' }).screenshot({ path: join(SHOTS, 'editor-layers.png') })
  // Unlocked, the same drag moves it.
  await page.getByRole('button', { name: 'Lock text', exact: true }).click()
  await title.waitFor()
  await dragText()
  await expect.poll(() => field('X').inputValue()).not.toBe('240')
  await page.getByRole('button', { name: 'Undo' }).click()
  await expect.poll(() => field('X').inputValue()).toBe('240')
})

it('adds a variation, changes a component in it only, shows API errors at the field, and renders it through GET', async () => {
  const { page } = c
  await page.getByLabel('New variation name').fill('Story')
  await page.getByLabel('New variation width').fill('600')
  await page.getByLabel('New variation height').fill('900')
  await page.getByRole('button', { name: 'Add variation' }).click()
  await page.getByRole('button', { name: 'Edit variation Story' }).waitFor()
  await expect(page.getByRole('button', { name: 'Edit variation Story' }).getAttribute('aria-pressed')).resolves.toBe('true')
  await pick('text')
  await field('X').fill('20')
  await field('Text').fill('Story text')
  // A size the API refuses: its message shows at the field.
  await field('Variation width').fill('5000')
  const widthError = page.locator('#prop-variation-width-error')
  await widthError.waitFor({ timeout: 15_000 })
  expect(await widthError.textContent()).toMatch(/4096/)
  await expect(field('Variation width').getAttribute('aria-invalid')).resolves.toBe('true')
  await field('Variation width').fill('600')
  await widthError.waitFor({ state: 'detached', timeout: 15_000 })
  await page.screenshot({ path: join(SHOTS, 'editor-variation.png'), fullPage: true })
  // The base size keeps its own values.
  await page.getByRole('button', { name: /^Base size/ }).click()
  await expect(field('X').inputValue()).resolves.toBe('240')
  await expect(field('Text').inputValue()).resolves.toBe('Summer concert')
  // A component's field the API refuses: the message shows under it.
  const fontSize = await field('Font size').inputValue()
  await field('Font size').fill('5000')
  const sizeError = page.locator('#prop-font-size-error')
  await sizeError.waitFor({ timeout: 15_000 })
  expect(await sizeError.textContent()).toMatch(/1000/)
  await field('Font size').fill(fontSize)
  await sizeError.waitFor({ state: 'detached', timeout: 15_000 })
  await page.getByRole('button', { name: 'Publish' }).click()
  await page.getByRole('status').filter({ hasText: 'Published' }).waitFor()
  const { design, renderCode } = await stored()
  expect(design!.variations).toEqual([{ id: 'story', name: 'Story', width: 600, height: 900, components: { text: { x: 20, text: 'Story text' } } }])
  expect(design!.components.find((k) => k.key === 'text')).toMatchObject({ x: 240, text: 'Summer concert' })
  const image = await fetch(`${c.url}/v1/${renderCode}?format=png&variation=story&key=${encodeURIComponent(c.key)}`)
  expect(image.status).toBe(200)
  const png = Buffer.from(await image.arrayBuffer())
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([600, 900])
})

it('deletes a design after a confirmation dialog; the API then answers 404', async () => {
  const { page } = c
  await page.getByRole('button', { name: 'Delete design' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete “Ticket”?' })
  await dialog.waitFor()
  // Escape keeps it.
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'hidden' })
  expect((await fetch(`${c.url}/designs/v2/${id}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200)
  await page.getByRole('button', { name: 'Delete design' }).click()
  await dialog.getByRole('button', { name: 'Delete for good' }).click()
  await page.getByRole('heading', { name: 'Designs', level: 1 }).waitFor()
  expect((await fetch(`${c.url}/designs/v2/${id}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404)
  await page.getByRole('link', { name: /^Ticket/ }).waitFor({ state: 'detached' })
})
