import { describe, expect, it } from 'vitest'
import { mapToRepositoryPath, normalizePathPrefix } from './paths'

describe('mapToRepositoryPath', () => {
  it.each([
    ['relative path as is', 'src/x.ts', '', 'src/x.ts'],
    ['./ stripped', './src/x.ts', '', 'src/x.ts'],
    ['Ruby relative path', 'app/models/user.rb', '', 'app/models/user.rb'],
    ['absolute path under the prefix', '/app/src/x.ts', '/app', 'src/x.ts'],
    ['prefix with a trailing slash', '/app/src/x.ts', '/app/', 'src/x.ts'],
    ['file:// URL under the prefix', 'file:///app/src/x.ts', '/app/', 'src/x.ts'],
    ['file:// URL with escapes', 'file:///app/src/my%20file.ts', '/app/', 'src/my file.ts'],
    ['file:// prefix', 'file:///srv/app/x.py', 'file:///srv/app', 'x.py'],
    ['webpack:// with a namespace', 'webpack://my-app/./src/x.ts', '', 'src/x.ts'],
    ['webpack:/// without a namespace', 'webpack:///./src/x.ts', '', 'src/x.ts'],
    ['webpack:/// plain', 'webpack:///src/x.ts?abc', '', 'src/x.ts'],
    ['webpack-internal', 'webpack-internal:///./src/x.ts', '', 'src/x.ts'],
    [
      'http URL under a URL prefix',
      'https://cdn.test/src/x.js?v=1',
      'https://cdn.test/',
      'src/x.js',
    ],
    ['Windows path', 'C:\\app\\src\\x.ts', 'c:\\app', 'src/x.ts'],
  ])('%s', (_name, filename, prefix, path) => {
    expect(mapToRepositoryPath(filename, prefix)).toEqual({ inRepository: true, path })
  })

  it.each([
    ['no file', null, '', /names no file/],
    ['a Node built-in', 'node:internal/process/task_queues', '', /runtime/],
    ['an internal module', 'internal/modules/cjs/loader.js', '', /runtime/],
    ['<anonymous>', '<anonymous>', '', /runtime/],
    ['native', 'native', '', /runtime/],
    ['node_modules', '/app/node_modules/hono/dist/index.js', '/app', /dependency/],
    ['relative node_modules', 'node_modules/x/index.js', '', /dependency/],
    ['webpack node_modules', 'webpack:///./node_modules/react/index.js', '', /dependency/],
    ['site-packages', '/usr/lib/python3/site-packages/flask/app.py', '/usr', /dependency/],
    ['gems', '/usr/local/bundle/gems/rack-3.0/lib/rack.rb', '/usr', /dependency/],
    ['an absolute path without a prefix', '/app/src/x.ts', '', /set a path prefix/],
    ['an absolute path outside the prefix', '/usr/lib/x.ts', '/app', /outside the path prefix/],
    ['a prefix that is only a name prefix', '/application/x.ts', '/app', /outside/],
    ['a served URL', 'https://cdn.test/app.js', '', /served URL/],
    ['a path that leaves the root', '../secret/x.ts', '', /leaves the repository root/],
    ['.. after the prefix', '/app/../etc/passwd', '/app', /leaves the repository root/],
  ])('%s is not in the repository', (_name, filename, prefix, reason) => {
    const mapped = mapToRepositoryPath(filename, prefix)
    expect(mapped.inRepository).toBe(false)
    if (!mapped.inRepository) expect(mapped.reason).toMatch(reason)
  })
})

describe('normalizePathPrefix', () => {
  it.each([
    ['/app', '/app/'],
    ['/app/', '/app/'],
    ['', ''],
    ['C:\\app', 'C:/app/'],
    ['file:///srv', '/srv/'],
  ])('%j → %j', (input, output) => {
    expect(normalizePathPrefix(input)).toBe(output)
  })
})
