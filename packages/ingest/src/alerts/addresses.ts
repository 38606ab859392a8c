// Which IP addresses an alert channel may not reach, so that a channel cannot probe the host's
// network: loopback, link-local, private, shared (CGNAT), unspecified, multicast and reserved
// ranges, in IPv4 and IPv6, including IPv6 forms that carry an IPv4 address (mapped, compatible,
// NAT64, 6to4).

/** IPv4 ranges that are not the public internet: `[first octets as a number, prefix length]`. */
const PRIVATE_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
]

/** The 32-bit value of a dotted-quad IPv4 address, or `null`. */
function parseIpv4(text: string): number | null {
  const parts = text.split('.')
  if (parts.length !== 4) return null
  let value = 0
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null
    value = value * 256 + Number(part)
  }
  return value
}

const PRIVATE_V4_RANGES = PRIVATE_V4.map(([base, bits]) => {
  const size = 2 ** (32 - bits)
  return { start: parseIpv4(base)!, size }
})

const isPrivateV4 = (value: number) =>
  PRIVATE_V4_RANGES.some(({ start, size }) => value >= start && value < start + size)

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part allowed), or `null`. */
function parseIpv6(text: string): number[] | null {
  const address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (!address.includes(':')) return null
  let tail: number[] = []
  let head = address
  const dotted = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(address)
  if (dotted) {
    const v4 = parseIpv4(dotted[1]!)
    if (v4 === null) return null
    tail = [Math.floor(v4 / 65_536), v4 % 65_536]
    head = address.slice(0, address.length - dotted[1]!.length)
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1)
  }
  const halves = head.split('::')
  if (halves.length > 2) return null
  const groups = (s: string) => (s === '' ? [] : s.split(':'))
  const left = groups(halves[0]!)
  const right = halves.length === 2 ? groups(halves[1]!) : []
  if (![...left, ...right].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null
  const known = left.length + right.length + tail.length
  if (halves.length === 1 ? known !== 8 : known > 7) return null
  const zeros = new Array<number>(8 - known).fill(0)
  const hex = (g: string) => Number.parseInt(g, 16)
  return [...left.map(hex), ...zeros, ...right.map(hex), ...tail]
}

const v4Of = (high: number, low: number) => high * 65_536 + low

function isPrivateV6(g: readonly number[]): boolean {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, x = 0, y = 0] = g
  const zeroTo = (n: number) => g.slice(0, n).every((v) => v === 0)
  if (zeroTo(8)) return true // ::
  if (zeroTo(7) && y === 1) return true // ::1
  if (zeroTo(5) && f === 0xffff) return isPrivateV4(v4Of(x, y)) // ::ffff:a.b.c.d
  if (zeroTo(6)) return isPrivateV4(v4Of(x, y)) // ::a.b.c.d (deprecated "compatible")
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) {
    return isPrivateV4(v4Of(x, y)) // NAT64 64:ff9b::/96
  }
  if (a === 0x2002) return isPrivateV4(v4Of(b, c)) // 6to4 carries an IPv4 address
  if ((a & 0xfe00) === 0xfc00) return true // unique local fc00::/7
  if ((a & 0xffc0) === 0xfe80) return true // link-local fe80::/10
  if ((a & 0xffc0) === 0xfec0) return true // site-local fec0::/10 (deprecated)
  if ((a & 0xff00) === 0xff00) return true // multicast
  return a === 0x100 && b === 0 && c === 0 && d === 0 // discard 100::/64
}

/** Whether `text` is an IP address literal (IPv4 dotted quad or IPv6, brackets allowed). */
export function isIpLiteral(text: string): boolean {
  return parseIpv4(text) !== null || parseIpv6(text) !== null
}

/**
 * Whether an IP address (dotted-quad IPv4, or IPv6 with or without brackets) is one an alert
 * channel may not reach: loopback, link-local, private (RFC 1918, IPv6 unique local), shared
 * (100.64/10), unspecified, multicast or reserved, including IPv6 forms that embed such an IPv4
 * address (`::ffff:127.0.0.1`, NAT64, 6to4). Text that is no IP address is not private (resolve
 * names first). The delivery side checks each connection's address with it again (DNS
 * rebinding).
 */
export function isPrivateAddress(address: string): boolean {
  const v4 = parseIpv4(address)
  if (v4 !== null) return isPrivateV4(v4)
  const v6 = parseIpv6(address)
  return v6 !== null && isPrivateV6(v6)
}
