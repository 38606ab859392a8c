import type { Frame } from '@tis/schema'
import { describe, expect, it } from 'vitest'
import { hasMapFields, withMapFields } from './map-frames'

// The detail's frames (positions, excerpts) joined with the stored frames' source-map fields.
describe('withMapFields', () => {
  const minified: Frame = {
    function: 'o',
    filename: 'https://shop.example/assets/index-3f2a.js',
    lineno: 1,
    colno: 10234,
    in_app: false,
    source: { status: 'not_in_repository', message: 'a served URL' },
  }
  const resolved = {
    function: 'explode',
    filename: 'src/checkout.ts',
    lineno: 9,
    colno: 11,
    in_app: true,
    context_line: '  throw err',
    raw: { function: 'o', filename: minified.filename, lineno: 1, colno: 10234 },
    sourcemap: { resolved: true, with: 'debug_id' },
  }
  it.each([
    [
      'a resolved frame takes its position, lines and in_app from the stored frame, its excerpt from the detail',
      [minified],
      [resolved],
      {
        function: 'explode',
        filename: 'src/checkout.ts',
        lineno: 9,
        colno: 11,
        app: true,
        context_line: '  throw err',
        source: minified.source,
        raw: { function: 'o', filename: minified.filename, lineno: 1, colno: 10234 },
        sourcemap: { resolved: true, with: 'debug_id', problem: null },
      },
    ],
    [
      'a resolved frame without a derived name has none, never the minified one',
      [minified],
      [{ ...resolved, function: undefined }],
      { function: null },
    ],
    [
      'an untouched frame keeps the detail position and only its own in_app is added',
      [{ ...minified, filename: '/app/x.js' }],
      [{ function: 'o', filename: '/app/x.js', lineno: 1, in_app: false }],
      { function: 'o', filename: '/app/x.js', colno: 10234, app: false },
    ],
  ])('%s', (_rule, detail, stored, expected) => {
    const [frame] = withMapFields(detail, stored)
    expect(frame).toMatchObject(expected)
  })

  it('is the detail itself without stored frame objects, and says whether maps touched any', () => {
    expect(withMapFields([minified], undefined)).toEqual([minified])
    expect(hasMapFields(withMapFields([minified], [{ function: 'o' }]))).toBe(false)
    expect(hasMapFields(withMapFields([minified], [resolved]))).toBe(true)
  })
})
