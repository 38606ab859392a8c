import { describe, expect, it } from 'vitest'
import { framesOfEvent, MAX_FRAMES, parseFrameLine } from './frames'

const f = (fn: string | null, filename: string, lineno: number, colno: number | null = null) => ({
  function: fn,
  filename,
  lineno,
  colno,
})

describe('parseFrameLine', () => {
  it.each([
    ['V8 named', '    at handler (/app/src/x.ts:10:5)', f('handler', '/app/src/x.ts', 10, 5)],
    ['V8 anonymous', '    at /app/src/x.ts:10:5', f(null, '/app/src/x.ts', 10, 5)],
    ['V8 async', '    at async run (file:///app/a.js:3:1)', f('run', 'file:///app/a.js', 3, 1)],
    [
      'V8 URL with a port',
      '    at go (http://localhost:8080/assets/app.js:1:200)',
      f('go', 'http://localhost:8080/assets/app.js', 1, 200),
    ],
    [
      'Firefox/Safari named',
      'handler@webpack:///./src/x.ts:4:2',
      f('handler', 'webpack:///./src/x.ts', 4, 2),
    ],
    [
      'Firefox/Safari anonymous',
      '@https://cdn.test/app.js:1:9',
      f(null, 'https://cdn.test/app.js', 1, 9),
    ],
    [
      "Ruby with in `method'",
      "app/models/user.rb:42:in `save'",
      f('save', 'app/models/user.rb', 42),
    ],
    [
      "Ruby 3.4 with in 'Class#method'",
      "/app/lib/x.rb:7:in 'User#save'",
      f('User#save', '/app/lib/x.rb', 7),
    ],
    ['path:line', 'app/jobs/sync.py:12', f(null, 'app/jobs/sync.py', 12)],
    ['Python SDK path:line:in fn', 'app/views.py:30:in index', f('index', 'app/views.py', 30)],
    [
      'Python traceback',
      '  File "/srv/app/views.py", line 30, in index',
      f('index', '/srv/app/views.py', 30),
    ],
    ['Python traceback without function', 'File "x.py", line 2', f(null, 'x.py', 2)],
  ])('%s', (_name, line, expected) => {
    expect(parseFrameLine(line)).toEqual(expected)
  })

  it.each([
    'Error: boom',
    'Traceback (most recent call last):',
    '    return users[id]',
    'KeyError: 42',
    '',
  ])('ignores %j', (line) => {
    expect(parseFrameLine(line)).toBeNull()
  })
})

describe('framesOfEvent', () => {
  const event = (exception: unknown) => ({ context: { exception } })

  it('reads the frames the SDK sends', () => {
    const frames = [
      { function: 'handler', filename: '/app/src/x.ts', lineno: 10, colno: 5 },
      { filename: 'node:internal/process/task_queues', lineno: 95, colno: 5 },
    ]
    expect(framesOfEvent(event({ class: 'Error', message: 'x', frames }))).toEqual([
      f('handler', '/app/src/x.ts', 10, 5),
      f(null, 'node:internal/process/task_queues', 95, 5),
    ])
  })

  it('accepts other common frame keys (abs_path, line, method, column)', () => {
    const frames = [{ abs_path: 'app/a.rb', line: '3', method: 'run', column: 2 }]
    expect(framesOfEvent(event({ frames }))).toEqual([f('run', 'app/a.rb', 3, 2)])
  })

  it('reads a backtrace of strings (Ruby, Python SDKs)', () => {
    const backtrace = ["app/models/user.rb:42:in `save'", 'garbage', '/usr/lib/ruby/x.rb:1:in `y`']
    expect(framesOfEvent(event({ backtrace }))).toEqual([
      f('save', 'app/models/user.rb', 42),
      f('y', '/usr/lib/ruby/x.rb', 1),
    ])
  })

  it('reads a Python traceback given as one string', () => {
    const backtrace = [
      'Traceback (most recent call last):',
      '  File "/srv/app/views.py", line 30, in index',
      '    return load(id)',
      '  File "/srv/app/db.py", line 8, in load',
      '    return rows[id]',
      'KeyError: 42',
    ].join('\n')
    expect(framesOfEvent(event({ backtrace }))).toEqual([
      f('index', '/srv/app/views.py', 30),
      f('load', '/srv/app/db.py', 8),
    ])
  })

  it('falls back to a raw stack string', () => {
    const stack = 'Error: boom\n    at run (/app/a.js:1:2)'
    expect(framesOfEvent(event({ stack }))).toEqual([f('run', '/app/a.js', 1, 2)])
  })

  it('prefers frames over backtrace', () => {
    const e = event({ frames: [{ filename: 'a.ts', lineno: 1 }], backtrace: ['b.rb:2'] })
    expect(framesOfEvent(e)).toEqual([f(null, 'a.ts', 1)])
  })

  it.each([
    ['no context', {}],
    ['no exception', { context: {} }],
    ['exception not an object', { context: { exception: 'boom' } }],
    ['frames not an array', { context: { exception: { frames: 'x' } } }],
    ['frames of non-objects', { context: { exception: { frames: [1, null, 'a'] } } }],
  ])('gives no frames for %s', (_name, payload) => {
    expect(framesOfEvent(payload)).toEqual([])
  })

  it(`keeps at most ${MAX_FRAMES} frames`, () => {
    const frames = Array.from({ length: 80 }, (_, i) => ({ filename: 'a.ts', lineno: i + 1 }))
    expect(framesOfEvent(event({ frames }))).toHaveLength(MAX_FRAMES)
  })

  it('drops non-positive or fractional line numbers', () => {
    const frames = [{ filename: 'a.ts', lineno: 0, colno: 1.5 }]
    expect(framesOfEvent(event({ frames }))).toEqual([
      { function: null, filename: 'a.ts', lineno: null, colno: null },
    ])
  })
})
