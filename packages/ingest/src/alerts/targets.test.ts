import { describe, expect, it } from 'vitest'
import { checkAlertTarget, type HostResolver, isPrivateAddress } from './targets'

const PUBLIC_DNS = async () => ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']
const refused = (url: string, resolve: HostResolver = PUBLIC_DNS) =>
  checkAlertTarget('url', url, { allowPrivateTargets: false, resolve })

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback /8'],
    ['10.1.2.3', 'RFC 1918 10/8'],
    ['172.16.0.1', 'RFC 1918 172.16/12'],
    ['172.31.255.255', 'RFC 1918 172.16/12 end'],
    ['192.168.1.1', 'RFC 1918 192.168/16'],
    ['100.64.0.1', 'CGNAT 100.64/10'],
    ['100.127.255.255', 'CGNAT end'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', '0/8'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['[::1]', 'bracketed IPv6 loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique local fc00::/7'],
    ['fd12:3456::1', 'unique local fd'],
    ['fe80::1', 'link-local fe80::/10'],
    ['febf::1', 'link-local end'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback, dotted'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, as the URL parser writes it'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped link-local'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['ff02::1', 'IPv6 multicast'],
  ])('%s is private (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true)
  })

  it.each([
    ['93.184.215.14'],
    ['8.8.8.8'],
    ['172.32.0.1'],
    ['100.128.0.1'],
    ['169.253.255.255'],
    ['11.0.0.1'],
    ['2606:4700:4700::1111'],
    ['::ffff:8.8.8.8'],
    ['2002:808:808::'],
    ['fec0'],
    ['example.com'],
    ['1.2.3'],
  ])('%s is not private', (address) => {
    expect(isPrivateAddress(address)).toBe(false)
  })
})

describe('checkAlertTarget', () => {
  it.each([
    ['http://127.0.0.1:8080/hook', '127.0.0.1'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://[::1]/', '::1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[fd00::5]/', 'fd00::5'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['http://localhost:3000/', 'localhost'],
    ['http://LOCALHOST./', 'localhost.'],
    ['http://api.localhost/', 'api.localhost'],
  ])('refuses %s, naming %s', async (url, shown) => {
    const result = await refused(url)
    expect(result).toEqual({ ok: false, error: expect.stringContaining(`(${shown})`) })
    expect(result.ok || result.error).toMatch(
      /^url points to a private or local address .*SERVICE_ALERTS_ALLOW_PRIVATE_TARGETS=true/,
    )
  })

  it('refuses a name when any of its addresses is private', async () => {
    const resolve = async (host: string) =>
      host === 'inside.example' ? ['8.8.8.8', '10.0.0.7'] : []
    expect(await refused('https://inside.example/x', resolve)).toEqual({
      ok: false,
      error: expect.stringContaining('inside.example resolves to 10.0.0.7'),
    })
  })

  it('refuses a name that does not resolve', async () => {
    const fail = async () => {
      throw new Error('ENOTFOUND')
    }
    expect(await refused('https://nowhere.invalid/', fail)).toEqual({
      ok: false,
      error: 'url host nowhere.invalid does not resolve',
    })
  })

  it.each([
    ['javascript:alert(1)'],
    ['ftp://example.com/x'],
    ['file:///etc/passwd'],
    ['data:text/plain,hi'],
    ['not a url'],
    ['//example.com/x'],
  ])('refuses %s as not an http(s) URL', async (url) => {
    expect(await refused(url)).toEqual({ ok: false, error: 'url must be an http or https URL' })
  })

  it('refuses credentials in the URL', async () => {
    expect(await refused('https://user:pw@hooks.example.com/')).toEqual({
      ok: false,
      error: 'url must not contain credentials (user:password@)',
    })
  })

  it('accepts a public name, answering the normalised URL', async () => {
    expect(await refused('HTTPS://Hooks.Example.com/a?b=1')).toEqual({
      ok: true,
      url: 'https://hooks.example.com/a?b=1',
    })
  })

  it('accepts private targets when allowed, and refuses names it cannot resolve without a resolver', async () => {
    expect(
      await checkAlertTarget('url', 'http://127.0.0.1:9/', { allowPrivateTargets: true }),
    ).toEqual({ ok: true, url: 'http://127.0.0.1:9/' })
    expect(
      await checkAlertTarget('url', 'https://hooks.example.com/', { allowPrivateTargets: false }),
    ).toMatchObject({ ok: false, error: expect.stringContaining('cannot be checked') })
    expect(
      await checkAlertTarget('url', 'https://8.8.8.8/', { allowPrivateTargets: false }),
    ).toEqual({ ok: true, url: 'https://8.8.8.8/' })
  })
})
