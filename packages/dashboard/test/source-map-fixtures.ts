import { createHash } from 'node:crypto'
import type { NewArtifactBundle } from '@tis/ingest'

// Source maps in the dashboard's tests. Frames in the stored shape of docs/sourcemaps.md, as the projection writes them once it
// resolved them: one with its original lines, one whose map has no sources, two library frames
// (react-dom), and one without a map.

/** The bundle the resolved frames were sent from. */
export const MINIFIED = 'https://shop.example/assets/index-3f2a.js'
/** A bundle without an uploaded map. */
export const VENDOR = 'https://shop.example/assets/vendor-9c1.js'
const raw = (fn: string, colno: number, file = MINIFIED) => ({
  function: fn,
  filename: file,
  lineno: 1,
  colno,
  in_app: true,
})
/** `context.exception.frames` of an event resolved with source maps, innermost first. */
export const FRAMES = [
  {
    function: 'explode',
    filename: 'src/checkout.ts',
    abs_path: 'https://shop.example/assets/src/checkout.ts',
    lineno: 9,
    colno: 11,
    in_app: true,
    pre_context: ['export function explode(input: string) {', '  const total = <b>sum</b>(input)'],
    context_line: "  throw new Error('boom ' + input)",
    post_context: ['}'],
    raw: raw('o', 10234),
    sourcemap: {
      resolved: true,
      with: 'debug_id',
      debug_id: 'f6252536-0000-4000-8000-000000000001',
    },
  },
  {
    function: 'render',
    filename: 'src/view.ts',
    lineno: 3,
    colno: 2,
    in_app: true,
    raw: raw('r', 500),
    sourcemap: {
      resolved: true,
      with: 'release',
      problem: 'map has no sourcesContent for src/view.ts',
    },
  },
  ...['renderRoot', 'commitRoot'].map((fn, i) => ({
    function: fn,
    filename: 'node_modules/react-dom/cjs/react-dom.development.js',
    lineno: 100 + i,
    colno: 7,
    in_app: false,
    context_line: `  ${fn}(root)`,
    raw: raw(`x${i}`, 20_000 + i),
    sourcemap: { resolved: true, with: 'debug_id' },
  })),
  {
    function: 'a',
    filename: VENDOR,
    lineno: 1,
    colno: 77,
    in_app: true,
    sourcemap: {
      resolved: false,
      problem: 'no source map uploaded for ~/assets/vendor-9c1.js in release 1.2.0',
    },
  },
]

/** An error event of release 1.2.0 with {@link FRAMES}. */
export const MAPPED_EVENT = {
  event_type: 'error',
  level: 'error',
  message: 'Error: boom mapped',
  release: '1.2.0',
  context: { exception: { class: 'Error', message: 'boom mapped', frames: FRAMES } },
}

/** SHA-1 hex, the key of stored contents. */
const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex')

/** A bundle of a minified file and its map, both with one debug ID, as sentry-cli uploads it. */
export function bundleOf(projectId: string, release: string): NewArtifactBundle {
  const debugId = crypto.randomUUID()
  const file = (url: string, type: 'minified_source' | 'source_map', text: string) => {
    const content = new TextEncoder().encode(text)
    return {
      url,
      type,
      debugId,
      headers: { 'debug-id': debugId },
      sha1: sha1(content),
      size: content.length,
      content,
    }
  }
  const files = [
    file(
      '~/assets/app.min.js',
      'minified_source',
      `function o(n){throw new Error("boom "+n)}//# debugId=${debugId}`,
    ),
    file(
      '~/assets/app.min.js.map',
      'source_map',
      JSON.stringify({ version: 3, sources: ['src/app.ts'], names: [], mappings: 'AAAA', debugId }),
    ),
  ]
  return {
    projectId,
    checksum: sha1(new TextEncoder().encode(debugId)),
    bundleDebugId: crypto.randomUUID(),
    release,
    dist: null,
    files,
    uploadedBy: null,
    uploadedAt: new Date(),
  }
}
