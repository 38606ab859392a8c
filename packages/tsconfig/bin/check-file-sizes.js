#!/usr/bin/env node
// Fails when a source file (tests aside) under packages/*/src or apps/*/src is longer than
// MAX_LINES: a file that long holds more than one concept (docs/architecture.md, "File size").
// A package's `index.ts` that only re-exports, name by name, is a table of contents, not a
// concept: it is as long as the public surface, so it has no cap.
// Usage: check-file-sizes.js [root] — root defaults to the current directory.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const MAX_LINES = 300
const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/
const TEST = /\.test\.[a-z]+$/

/** Whether `text` (an `index.ts`) holds nothing but comments and `export … from '…'` statements. */
function onlyReExports(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  const rest = code.replace(/export\s+(type\s+)?\{[^}]*\}\s*from\s*'[^']*'\s*;?/g, '')
  return rest.trim() === ''
}

/** Every file below `dir`, as paths joined to it. */
function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* files(path)
    else if (entry.isFile()) yield path
  }
}

/** The `src` folders of every package and app under `root`. */
function* sourceRoots(root) {
  for (const group of ['packages', 'apps']) {
    let members
    try {
      members = readdirSync(join(root, group), { withFileTypes: true })
    } catch {
      continue
    }
    for (const member of members) {
      if (!member.isDirectory()) continue
      const src = join(root, group, member.name, 'src')
      try {
        readdirSync(src)
        yield src
      } catch {}
    }
  }
}

const root = process.argv[2] ?? process.cwd()
const tooLong = []
for (const src of sourceRoots(root)) {
  for (const file of files(src)) {
    if (!SOURCE.test(file) || TEST.test(file)) continue
    const text = readFileSync(file, 'utf8')
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
    if (lines > MAX_LINES && !(file.endsWith('/index.ts') && onlyReExports(text)))
      tooLong.push(`  ${relative(root, file)}: ${lines} lines`)
  }
}
if (tooLong.length > 0) {
  console.error(
    `${tooLong.length} source file(s) over ${MAX_LINES} lines; split each by concept:\n${tooLong.sort().join('\n')}`,
  )
  process.exitCode = 1
} else {
  console.log(`file sizes: no source file over ${MAX_LINES} lines`)
}
