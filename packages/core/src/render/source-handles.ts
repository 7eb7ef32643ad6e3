/**
 * Large data: URIs travel to the render pool's workers once, not with every render. The pool's
 * thread replaces each image or font source of at least {@link HANDLE_MIN_CHARS} characters that
 * is a data: URI with a handle, `litho-handle:<SHA-256 of the text>`; a worker keeps the texts it
 * was sent by handle and puts them back before it renders, so the render, its caches and its
 * error messages see the very same document. A worker that lacks a handle (it never got that
 * text, dropped it, or was restarted) answers with a miss instead of rendering, and the pool sends
 * the task again with the texts. Each worker asks once per text: piscina picks the worker, so
 * the pool cannot know which one holds what, and does not need to.
 *
 * Posting the reference card's photo (a 509 K-character data: URI) by structured clone cost the
 * pool's thread a copy per render, and the worker a new string, whose image-cache lookup then
 * compared all of it; a handle is 56 characters, and the worker's text is the same string every
 * time (docs/performance.md, "Where the time goes").
 *
 * @module render/source-handles
 */
import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import type { Component } from '../design/schema.js'
import { mapComponents, walkComponents } from '../design/walk.js'
import type { ResolvedDocument } from './resolve-document.js'

/** Sources shorter than this are posted as they are: copying them costs less than a round trip on a miss. */
export const HANDLE_MIN_CHARS = 16 * 1024
/**
 * Characters of data: URIs a worker keeps by handle (least recently used dropped first): 64 Mi,
 * six maximum-size (10 MB) image sources.
 */
const HELD_CHARS = 64 * 1024 * 1024
/**
 * Characters of the texts the pool's memo of handles keeps: as many as the memo of validated
 * documents (design/validated-documents), whose strings they mostly are. A text that fell out is
 * hashed again (about 1 ms for 500 K characters).
 */
const HASHED_CHARS = 32 * 1024 * 1024
/** Longer sources are posted as they are: a worker could not keep them for the next render. */
const HANDLE_MAX_CHARS = HELD_CHARS / 4
const PREFIX = 'litho-handle:'

// The pool's side: each text's handle, hashed once per text (a Map lookup of the same string
// object, as the validated document hands it out, compares pointers, not characters; V8 hashes
// a string this long by its length only).
const handles = new LRUCache<string, string>({ maxSize: HASHED_CHARS, sizeCalculation: (_, text) => text.length })

function handleOf(text: string): string {
  let handle = handles.get(text)
  if (handle === undefined) {
    // UTF-16 code units, not UTF-8: UTF-8 would turn every lone surrogate into the same U+FFFD,
    // and two different texts must never share a handle.
    handle = PREFIX + createHash('sha256').update(text, 'utf16le').digest('base64url')
    handles.set(text, handle)
  }
  return handle
}

const isLarge = (src: unknown): src is string => typeof src === 'string' && src.length >= HANDLE_MIN_CHARS && src.length <= HANDLE_MAX_CHARS && /^\s*data:/i.test(src)

/** A resolved document ready to post, and the texts its handles stand for. */
export interface HandledDocument {
  resolved: ResolvedDocument
  /** The texts by handle, to send when a worker lacks them; empty when nothing was replaced. */
  texts: Map<string, string>
}

/**
 * The pool's side: `resolved` with every large data: URI source (images, font faces) replaced by
 * its handle. The document is copied only where a source is replaced; without one, `resolved` is
 * returned as it is.
 *
 * @example toHandles(resolved).resolved.document.components[0].src // 'litho-handle:Qm3…'
 */
export function toHandles(resolved: ResolvedDocument): HandledDocument {
  const texts = new Map<string, string>()
  const swap = (src: string): string => {
    const handle = handleOf(src)
    texts.set(handle, src)
    return handle
  }
  try {
    const doc = resolved.document
    let large = doc.fonts.some((face) => isLarge(face.src))
    if (!large) walkComponents(doc.components, (c) => (large ||= c.type === 'image' && isLarge(c.src)))
    if (!large) return { resolved, texts }
    const components = mapComponents(doc.components, (c): Component => (c.type === 'image' && isLarge(c.src) ? { ...c, src: swap(c.src) } : c))
    const fonts = doc.fonts.map((face) => (isLarge(face.src) ? { ...face, src: swap(face.src) } : face))
    return { resolved: { ...resolved, document: { ...doc, components, fonts } }, texts }
  } catch {
    // Not the shape of a resolved document (`renderResolved` takes the caller's): posted as it
    // is, for the worker to refuse as it always has.
    return { resolved, texts: new Map() }
  }
}

/**
 * The worker's side: the texts it was sent, by handle. {@link SourceStore.restore} puts them back
 * into a document received from the pool (its own structured-clone copy, changed in place).
 */
export interface SourceStore {
  /**
   * Replaces the `handles` in `resolved` by their texts: those `sent` with the task (kept for
   * later renders too) or kept from an earlier one. Returns false, changing nothing, when a
   * text is neither.
   */
  restore(resolved: ResolvedDocument, handles: readonly string[], sent?: Readonly<Record<string, string>>): boolean
}

/** Creates a worker's {@link SourceStore}, bounded in characters. */
export function createSourceStore(): SourceStore {
  const held = new LRUCache<string, string>({ maxSize: HELD_CHARS, sizeCalculation: (text) => text.length })
  return {
    restore(resolved, list, sent) {
      if (list.length === 0) return true
      const texts = new Map<string, string>()
      for (const handle of list) {
        let text = held.get(handle)
        if (text === undefined && sent !== undefined && Object.hasOwn(sent, handle)) {
          text = sent[handle]!
          held.set(handle, text)
        }
        if (text === undefined) return false
        texts.set(handle, text)
      }
      const doc = resolved.document
      // Only the handles the pool listed are replaced: a source that merely looks like one stays.
      const back = <T extends { src?: string | undefined }>(item: T): void => {
        const text = item.src === undefined ? undefined : texts.get(item.src)
        if (text !== undefined) item.src = text
      }
      walkComponents(doc.components, (c) => c.type === 'image' && back(c))
      for (const face of doc.fonts) back(face)
      return true
    },
  }
}
