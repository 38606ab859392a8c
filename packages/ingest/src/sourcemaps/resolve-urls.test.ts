import { describe, expect, it } from 'vitest'
import {
  candidateUrls,
  dataUrlBytes,
  displayUrl,
  isJavaScriptFile,
  isLibraryPath,
  joinUrl,
  sourceMappingUrlOf,
} from './resolve-urls'

describe('source-map URLs', () => {
  it.each([
    [
      'a URL with query and fragment: as sent, without query, ~/path with and without query',
      'https://shop.example/assets/app.js?v=3#top',
      [
        'https://shop.example/assets/app.js?v=3',
        'https://shop.example/assets/app.js',
        '~/assets/app.js?v=3',
        '~/assets/app.js',
      ],
    ],
    ['a plain URL', 'https://shop.example/app.js', ['https://shop.example/app.js', '~/app.js']],
    [
      'an absolute path (Node)',
      '/srv/app/dist/app.js',
      ['/srv/app/dist/app.js', '~/srv/app/dist/app.js'],
    ],
    ['an app:// URL (React Native, Electron)', 'app:///main.js', ['app:///main.js', '~/main.js']],
    ['an uploaded ~/ name', '~/static/app.js', ['~/static/app.js']],
    ['a bare name', 'app.js', ['app.js']],
  ])('candidates of %s', (_rule, url, expected) => {
    expect(candidateUrls(url)).toEqual(expected)
  })

  it.each([
    ['relative to a ~/ name', '~/static/js/app.js', 'app.js.map', '~/static/js/app.js.map'],
    [
      'up a folder from a URL',
      'https://x.example/a/b.js',
      '../maps/b.js.map',
      'https://x.example/maps/b.js.map',
    ],
    [
      'absolute stays',
      'https://x.example/a/b.js',
      'https://cdn.example/b.map',
      'https://cdn.example/b.map',
    ],
    [
      'a data: URL stays',
      '~/a.js',
      'data:application/json;base64,e30=',
      'data:application/json;base64,e30=',
    ],
    ['against a path', '/srv/app/dist/app.js', 'app.js.map', '/srv/app/dist/app.js.map'],
    ['root-relative on a ~/ name', '~/a/b.js', '/maps/b.map', '~/maps/b.map'],
    ['a bare base keeps the reference', 'b.js', 'b.js.map', 'b.js.map'],
  ])('joins %s', (_rule, base, ref, expected) => {
    expect(joinUrl(base, ref)).toBe(expected)
  })

  it('finds the last sourceMappingURL comment and decodes data: URLs', () => {
    expect(
      sourceMappingUrlOf(
        'a()\n//# sourceMappingURL=old.map\nb()\n//# sourceMappingURL=app.js.map\n',
      ),
    ).toBe('app.js.map')
    expect(sourceMappingUrlOf('//@ sourceMappingURL=legacy.map')).toBe('legacy.map')
    expect(sourceMappingUrlOf('no comment')).toBeUndefined()
    const decode = (url: string) => new TextDecoder().decode(dataUrlBytes(url))
    expect(decode('data:application/json;charset=utf-8;base64,eyJhIjoxfQ==')).toBe('{"a":1}')
    expect(decode('data:application/json,%7B%22a%22%3A1%7D')).toBe('{"a":1}')
    expect(dataUrlBytes('data:application/json;base64,@@@')).toBeUndefined()
    expect(dataUrlBytes('https://x')).toBeUndefined()
  })

  it('tells JavaScript files, display names and library paths', () => {
    expect(['a.js', 'b.mjs?x=1', 'https://x/c.cjs#f'].every(isJavaScriptFile)).toBe(true)
    expect(['a.ts', 'node:internal/x', '<anonymous>', 'a.json'].some(isJavaScriptFile)).toBe(false)
    expect(displayUrl('https://shop.example/assets/a.js?v=1')).toBe('~/assets/a.js')
    expect(
      [
        '../node_modules/react/index.js',
        'webpack:///webpack/bootstrap',
        'webpack:///(webpack)/x.js',
        'webpack://app/webpack/runtime/x',
      ].every(isLibraryPath),
    ).toBe(true)
    expect(isLibraryPath('../src/node_modules_like.js')).toBe(false)
  })
})
