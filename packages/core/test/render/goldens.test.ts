import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { createRenderer, type Renderer } from '../../src/index.js'
import { expectToMatchGolden } from '../../../testing/src/index.js'
import { scenes } from './scenes.js'

const all = await scenes()
let renderer: Renderer

beforeAll(() => {
  renderer = createRenderer()
})

const golden = (name: string): string => fileURLToPath(new URL(`./goldens/${name}.png`, import.meta.url))

describe('golden images', () => {
  for (const [name, scene] of Object.entries(all)) {
    it(`render › ${name}`, async () => {
      const result = await renderer.render(scene.design, { format: 'png', ...scene.options })
      expect(result.contentType).toBe('image/png')
      await expectToMatchGolden(result.bytes, golden(name))
    })
  }
})
