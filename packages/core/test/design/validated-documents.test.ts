import { describe, expect, it } from 'vitest'
import { validateDesign } from '../../src/index.js'
import { validateInput, validateOnce } from '../../src/design/validated-documents.js'
import { validateStoredDesign } from '../../src/service/validated-designs.js'
import { catchError } from './helpers.js'

const card = () => ({
  version: 2,
  width: 200,
  height: 100,
  components: [
    { type: 'text', key: 'title', width: 200, height: 50, text: 'Hello', dynamic: ['text'] },
    { type: 'image', key: 'photo', width: 100, height: 50, src: 'https://images.example.com/a.png' },
  ],
  variations: [{ id: 'wide', width: 400, height: 100, components: { title: { text: 'Wide' }, photo: { focus: { x: 0.5, y: 0.5 } } } }],
})


describe('validated documents', () => {
  it('validate once › the same object rendered again unchanged reuses its validated document', () => {
    const doc = card()
    const first = validateInput(doc)
    expect(validateInput(doc)).toBe(first)
    expect(first).toEqual(validateDesign(doc))
    expect(Object.isFrozen(first.components[0])).toBe(true)
  })

  it('validate once › a change to the same object is validated again, and seen', () => {
    const doc = card()
    const first = validateInput(doc)
    ;(doc.components[0] as { text: string }).text = 'Changed'
    const second = validateInput(doc)
    expect(second).not.toBe(first)
    expect((second.components[0] as { text: string }).text).toBe('Changed')
    ;(doc.components[0] as { width: number }).width = -1
    expect(catchError(() => validateInput(doc)).code).toBe('ERR_INVALID_DESIGN')
  })

  it("validate once › freezes nothing of the caller's, variation patches included", () => {
    const doc = card()
    validateInput(doc)
    expect(Object.isFrozen(doc)).toBe(false)
    expect(Object.isFrozen(doc.components[0])).toBe(false)
    expect(Object.isFrozen(doc.variations[0]!.components.photo.focus)).toBe(false)
    doc.variations[0]!.components.photo.focus.x = 0.25
    expect((validateInput(doc).variations[0]!.components!.photo as { focus: { x: number } }).focus.x).toBe(0.25)
  })

  it('validate once › an invalid document fails the same way every time', () => {
    const doc = { version: 2, width: 0, height: 10 }
    const first = catchError(() => validateInput(doc))
    const second = catchError(() => validateInput(doc))
    expect(second.message).toBe(first.message)
    expect(second.issues).toEqual(first.issues)
    expect(first.message).toBe(catchError(() => validateDesign(doc)).message)
  })

  it('validate once › a document that is not plain JSON is validated as it is, every time', () => {
    const doc = { version: 2, width: new Date(0), height: 10 }
    const first = catchError(() => validateInput(doc))
    expect(first.message).toBe(catchError(() => validateDesign(doc)).message)
    expect(catchError(() => validateInput(doc)).message).toBe(first.message)
  })

  it('validate once › a new object of the same content, and a stored design by id, share nothing wrong', () => {
    const doc = card()
    const byObject = validateInput(doc)
    const other = validateInput(card())
    expect(other).toEqual(byObject)
    expect(validateOnce('d_test', doc)).toBe(validateStoredDesign('d_test', structuredClone(doc)))
  })

  it('validate once › a string or a number is validated as it is', () => {
    expect(catchError(() => validateInput('{"version":2}')).code).toBe('ERR_INVALID_DESIGN')
    expect(catchError(() => validateInput(42)).code).toBe('ERR_INVALID_DESIGN')
  })
})
