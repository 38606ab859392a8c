import { describe, expect, it } from 'vitest'
import { stackFingerprint } from './stack-fingerprint'

const resolved = { resolved: true, with: 'debug_id' }

describe('stackFingerprint', () => {
  it('keys unresolved in-app frames by function@module or the path of their file', () => {
    expect(
      stackFingerprint('TypeError', [
        { function: 'o', filename: 'https://a.example/assets/index-1.js?v=2', in_app: true },
        { function: 'vendor', filename: 'x.js', in_app: false },
        { module: 'orders', in_app: true },
      ]),
    ).toBe('TypeError o@/assets/index-1.js ?@orders')
  })

  it('keys resolved frames by original file and derived name, else by the line text', () => {
    expect(
      stackFingerprint('Error', [
        {
          function: 'explode',
          filename: 'src/checkout.ts',
          context_line: '  throw new Error(x)',
          in_app: true,
          sourcemap: resolved,
        },
        {
          filename: 'src/main.ts',
          context_line: '  explode(1) ',
          in_app: true,
          sourcemap: resolved,
        },
        { filename: 'src/boot.ts', lineno: 7, in_app: true, sourcemap: resolved },
        { function: 'n', filename: 'a.js', in_app: true, sourcemap: { resolved: false } },
      ]),
    ).toBe('Error explode@src/checkout.ts src/main.ts:explode(1) src/boot.ts:7 n@a.js')
  })

  it('is undefined without a type or without an in-app frame, and counts ten frames', () => {
    expect(stackFingerprint(undefined, [{ function: 'f', in_app: true }])).toBeUndefined()
    expect(stackFingerprint('Error', [{ function: 'f', in_app: false }, 'x'])).toBeUndefined()
    const many = Array.from({ length: 12 }, (_, i) => ({ function: `f${i}`, in_app: true }))
    expect(stackFingerprint('E', many)?.split(' ')).toHaveLength(11)
  })
})
