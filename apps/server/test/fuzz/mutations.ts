import fc from 'fast-check'
import { anyJson, anyString, nest } from './values'

/** One structural change to a JSON body; `pick` chooses the key it applies to. */
export type Mutation =
  | { readonly kind: 'drop'; readonly pick: number }
  | { readonly kind: 'rename'; readonly pick: number; readonly style: KeyStyle }
  | { readonly kind: 'set'; readonly pick: number; readonly value: unknown }
  | { readonly kind: 'add'; readonly pick: number; readonly key: string; readonly value: unknown }
  | { readonly kind: 'nest'; readonly pick: number; readonly depth: number }

type KeyStyle = 'camel' | 'pascal' | 'upper' | 'kebab' | 'space' | 'random'

const KEY_STYLES: readonly KeyStyle[] = ['camel', 'pascal', 'upper', 'kebab', 'space', 'random']

/** Every object key of `value` with its path, root first. */
function keyPaths(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = []) {
  if (Array.isArray(value))
    value.forEach((v, i) => {
      keyPaths(v, [...path, i], out)
    })
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push([...path, k])
      keyPaths(v, [...path, k], out)
    }
  }
  return out
}

/** Every object (root included) of `value`: where keys can be added. */
function objectPaths(
  value: unknown,
  path: (string | number)[] = [],
  out: (string | number)[][] = [],
) {
  if (Array.isArray(value))
    value.forEach((v, i) => {
      objectPaths(v, [...path, i], out)
    })
  else if (value !== null && typeof value === 'object') {
    out.push(path)
    for (const [k, v] of Object.entries(value)) objectPaths(v, [...path, k], out)
  }
  return out
}

function restyle(key: string, style: KeyStyle, random: string): string {
  const words = key.split('_')
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1)
  switch (style) {
    case 'camel':
      return words[0] + words.slice(1).map(cap).join('')
    case 'pascal':
      return words.map(cap).join('')
    case 'upper':
      return key.toUpperCase()
    case 'kebab':
      return words.join('-')
    case 'space':
      return ` ${key}`
    case 'random':
      return random
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the mutated body is any JSON
type Json = any

function parentOf(root: Json, path: (string | number)[]): Json {
  let node = root
  for (const step of path.slice(0, -1)) node = node[step]
  return node
}

/** Applies `mutations` to a deep copy of `body`. */
export function mutate(body: unknown, mutations: readonly Mutation[]): unknown {
  const root: Json = { root: structuredClone(body) }
  for (const m of mutations) {
    if (m.kind === 'add') {
      const objects = objectPaths(root.root, ['root'])
      const at = objects[m.pick % objects.length]
      if (at === undefined) continue
      let node = root
      for (const step of at) node = node[step]
      node[m.key] = structuredClone(m.value)
      continue
    }
    const paths = keyPaths(root.root, ['root'])
    const path = paths[m.pick % paths.length]
    if (path === undefined) continue
    const parent = parentOf(root, path)
    const key = path[path.length - 1] as string
    switch (m.kind) {
      case 'drop':
        delete parent[key]
        break
      case 'rename': {
        const renamed = restyle(key, m.style, `k${m.pick}`)
        const value = parent[key]
        delete parent[key]
        parent[renamed] = value
        break
      }
      case 'set':
        parent[key] = structuredClone(m.value)
        break
      case 'nest':
        parent[key] = nest(m.depth, parent[key])
        break
    }
  }
  return root.root
}

/** 0–4 mutations, mostly small ones. */
export const mutations: fc.Arbitrary<Mutation[]> = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
    fc.record({
      kind: fc.constant('rename' as const),
      pick: fc.nat(),
      style: fc.constantFrom(...KEY_STYLES),
    }),
    {
      arbitrary: fc.record({ kind: fc.constant('set' as const), pick: fc.nat(), value: anyJson }),
      weight: 3,
    },
    fc.record({
      kind: fc.constant('add' as const),
      pick: fc.nat(),
      key: fc.oneof(
        anyString,
        fc.constantFrom('EVENT', 'event', '__proto__', 'constructor', 'context'),
      ),
      value: anyJson,
    }),
    fc.record({
      kind: fc.constant('nest' as const),
      pick: fc.nat(),
      depth: fc.integer({ min: 1, max: 66 }),
    }),
  ),
  { maxLength: 4 },
)

/** A change to the serialised body text. */
export type TextMutation =
  | { readonly kind: 'none' }
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'bom' }
  | { readonly kind: 'duplicateKey' }
  | { readonly kind: 'token'; readonly token: string }
  | { readonly kind: 'trailing'; readonly text: string }
  | { readonly kind: 'whitespace' }

/** Text mutations: mostly none. */
export const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  { weight: 12, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'bom' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'duplicateKey' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('token' as const),
      token: fc.constantFrom(
        'NaN',
        'Infinity',
        '-Infinity',
        '1e999',
        '-1e999',
        '1e-999',
        '-0',
        '99999999999999999999',
        '0.1e1',
        '1E400',
        '123456789012345678901234567890',
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('trailing' as const),
      text: fc.constantFrom('x', '}', ',', '\u0000', '\n{}'),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'whitespace' as const }) },
)

/**
 * Serialises `body` and applies `m`. A `token` replaces the first number (or else the first
 * string value) with a raw token such as `NaN` or `1e999`; `duplicateKey` repeats the root's
 * first member, as `{"event":{…},"event":{…}}`.
 */
export function serialize(body: unknown, m: TextMutation): string {
  const text = JSON.stringify(body) ?? 'undefined'
  switch (m.kind) {
    case 'none':
      return text
    case 'truncate':
      return text.slice(0, m.at % Math.max(1, text.length))
    case 'bom':
      return `\uFEFF${text}`
    case 'duplicateKey': {
      const match = /^\{("(?:[^"\\]|\\.)*":)/.exec(text)
      if (!match || !body || typeof body !== 'object') return `${text}${text}`
      const first = Object.values(body)[0]
      return `{${match[1]}${JSON.stringify(first) ?? 'null'},${text.slice(1)}`
    }
    case 'token': {
      const number = /:(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)([,}\]])/
      if (number.test(text)) return text.replace(number, `:${m.token}$2`)
      return text.replace(/:"(?:[^"\\]|\\.)*"/, `:${m.token}`)
    }
    case 'trailing':
      return `${text}${m.text}`
    case 'whitespace':
      return `\r\n\t ${text} \n`
  }
}
