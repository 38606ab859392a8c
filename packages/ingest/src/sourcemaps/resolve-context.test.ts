import { describe, expect, it } from 'vitest'
import { contextOf, trimLine } from './resolve-context'

describe('context lines', () => {
  it('takes five lines each side, fewer at the edges of the file', () => {
    const source = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\r\n')
    expect(contextOf(source, 10, 0)).toEqual({
      pre_context: ['line 5', 'line 6', 'line 7', 'line 8', 'line 9'],
      context_line: 'line 10',
      post_context: ['line 11', 'line 12', 'line 13', 'line 14', 'line 15'],
    })
    expect(contextOf(source, 1, 0)?.pre_context).toEqual([])
    expect(contextOf(source, 20, 0)?.post_context).toEqual([])
    expect(contextOf(source, 21, 0)).toBeUndefined()
  })

  it('reads the same lines whatever the line breaks, and again from the kept offsets', () => {
    const source = 'a\nb\r\nc\rd\n'
    for (let round = 0; round < 2; round++) {
      expect(contextOf(source, 3, 0)).toEqual({
        pre_context: ['a', 'b'],
        context_line: 'c',
        post_context: ['d', ''],
      })
    }
  })

  it('cuts lines over 150 characters to 140 around the column, marked {snip}', () => {
    const long = `${'x'.repeat(100)}HERE${'y'.repeat(300)}`
    const cut = trimLine(long, 100)
    expect(cut).toBe(`{snip} ${long.slice(30, 170)} {snip}`)
    expect(cut).toContain('HERE')
    expect(trimLine(long, 0)).toBe(`${long.slice(0, 140)} {snip}`)
    expect(trimLine(long, 404)).toBe(`{snip} ${long.slice(264)}`)
    expect(trimLine('short', 3)).toBe('short')
  })
})
