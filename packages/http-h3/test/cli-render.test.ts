import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'

// The real `litho` binary (dist/cli.js): `pnpm test` builds first.
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const EXAMPLE = fileURLToPath(new URL('../../../examples/social-card.json', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'litho-cli-'))

function litho(args: string[]): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr: stderr.toString() })
    })
  })
}

const write = (name: string, content: unknown): string => {
  const file = join(dir, name)
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content))
  return file
}

describe('litho render', () => {
  it('cli › -o writes the file and prints one JSON object', async () => {
    const out = join(dir, 'card.webp')
    const { code, stdout, stderr } = await litho(['render', EXAMPLE, '--format', 'webp', '-o', out])
    expect(code, stderr).toBe(0)
    const summary = JSON.parse(stdout.toString())
    expect(summary).toMatchObject({ file: out, format: 'webp', width: 1080, height: 1080, variation: 'master' })
    expect((await sharp(readFileSync(out)).metadata()).format).toBe('webp')
  })

  it('cli › without -o the bytes go to stdout (png by default)', async () => {
    const { code, stdout } = await litho(['render', EXAMPLE, '--variation', 'banner'])
    expect(code).toBe(0)
    const meta = await sharp(stdout).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 630])
  })

  it('cli › --set overrides fields, coerced like query strings', async () => {
    const doc = write('set.json', { version: 2, width: 100, height: 50, components: [{ type: 'shape', key: 'box', width: 100, height: 50, fill: '#ff0000', dynamic: ['fill', 'opacity'] }] })
    const { code, stdout } = await litho(['render', doc, '--set', 'box.fill=#0000ff', '--set', 'box.opacity=1', '--format', 'png'])
    expect(code).toBe(0)
    const { data } = await sharp(stdout).raw().toBuffer({ resolveWithObject: true })
    expect([data[0], data[1], data[2]]).toEqual([0, 0, 255])
  })

  it('cli › a { name, design } record is accepted', async () => {
    const doc = write('record.json', { name: 'Record', design: { version: 2, width: 20, height: 10 } })
    const { code, stdout } = await litho(['render', doc, '--format', 'jpeg'])
    expect(code).toBe(0)
    expect((await sharp(stdout).metadata()).format).toBe('jpeg')
  })

  it('cli › a missing file is a clear error, exit 2', async () => {
    const { code, stderr, stdout } = await litho(['render', join(dir, 'nope.json')])
    expect(code).toBe(2)
    expect(stdout.length).toBe(0)
    expect(stderr).toContain(`litho: cannot read ${join(dir, 'nope.json')}: no such file`)
  })

  it('cli › a file that is not JSON is a clear error', async () => {
    const { code, stderr } = await litho(['render', write('bad.json', '{ not json')])
    expect(code).toBe(2)
    expect(stderr).toMatch(/litho: .*bad\.json is not valid JSON/)
  })

  it('cli › an invalid document lists every problem, exit 1', async () => {
    const doc = write('invalid.json', { version: 2, width: 5000, height: 10, components: [{ type: 'text', key: 'a', width: 1, height: 1, fontSize: 'big' }, { type: 'blob', key: 'b' }] })
    const { code, stderr } = await litho(['render', doc])
    expect(code).toBe(1)
    expect(stderr).toContain('Invalid design document (3 problems)')
    expect(stderr).toContain('width: expected a whole number of pixels between 1 and 4096, received 5000')
    expect(stderr).toContain('components[0].fontSize: expected a number between 1 and 1000, received "big"')
    expect(stderr).toContain('components[1].type: expected "type" to be one of text, image, shape, qrcode, barcode, group, received "blob"')
  })

  it('cli › an invalid override is a clear error naming the key', async () => {
    const { code, stderr } = await litho(['render', EXAMPLE, '--set', 'title.color=nocolour'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/title\.color: expected a CSS colour/)
  })

  it('cli › ignored overrides are warned about on stderr', async () => {
    const { code, stderr } = await litho(['render', EXAMPLE, '--set', 'title=Hi', '-o', join(dir, 'w.png')])
    expect(code).toBe(0)
    expect(stderr).toContain('warning: "title" is a bare component key and names no field; use "title.<field>"')
    expect(stderr).not.toMatch(/shrunk|cut/)
  })

  it.each([
    [['render', EXAMPLE, '--set', 'novalue'], /--set: expected key\.field=value, received "novalue"/],
    [['render', EXAMPLE, '--format', 'gif'], /--format: expected one of png, jpeg, webp, pdf, received "gif"/],
    [['render', EXAMPLE, '--quality', 'high'], /--quality: expected a whole number between 1 and 100, received "high"/],
    [['render'], /render needs a FILE/],
    [['render', EXAMPLE, '--bogus'], /Unknown option '--bogus'/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ])('cli › usage mistakes exit 2 with a message: %j', async (args, message) => {
    const { code, stderr } = await litho(args)
    expect(code).toBe(2)
    expect(stderr).toMatch(message)
  })

  it('cli › quality out of range is refused, exit 1', async () => {
    const { code, stderr } = await litho(['render', EXAMPLE, '--format', 'jpeg', '--quality', '101'])
    expect(code).toBe(1)
    expect(stderr).toContain('quality: expected a whole number between 1 and 100, received 101')
  })

  it('cli › an unknown variation is refused', async () => {
    const { code, stderr } = await litho(['render', EXAMPLE, '--variation', 'poster'])
    expect(code).toBe(1)
    expect(stderr).toContain('unknown variation "poster"')
  })
})
