#!/usr/bin/env node
// Type-checks every package and app of the workspace in as few TypeScript programs as their
// compiler options allow (docs/testing.md#typecheck).
//
// Each package's tsconfig compiles its workspace dependencies from their sources (the
// `@tis/source` condition), so checking the packages one by one checks `@tis/schema` nineteen
// times. Here the packages whose options agree (most differ only in whether `lib` has DOM) share
// one program: every file is checked once per set of options, with the same options as its own
// tsconfig gives it, and the file set is exactly the union of the packages' own. Options that only
// permit something (`allowImportingTsExtensions`) are granted to the whole group when one member
// asks for them. The groups run in parallel, one `tsc` each.
// Usage: typecheck.js [root] — root defaults to the current directory.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'

const require = createRequire(import.meta.url)
const ts = require('typescript')

/** Options that only permit more: the group gets them when any member has them. */
const PERMISSIVE = new Set(['allowImportingTsExtensions'])
/** Options that are where a file came from, not how it is checked. */
const LOCATION = new Set(['configFilePath', 'pathsBasePath'])

const root = resolve(process.argv[2] ?? '.')

/** The tsconfig.json of every package and app under `root`. */
function* tsconfigs() {
  for (const group of ['packages', 'apps']) {
    const dir = join(root, group)
    if (!existsSync(dir)) continue
    for (const member of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, member.name, 'tsconfig.json')
      if (member.isDirectory() && existsSync(path)) yield path
    }
  }
}

/** The parsed options and root files of one tsconfig; exits on a config error. */
function parse(path) {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        console.error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
        process.exit(2)
      },
    },
  )
  if (parsed.errors.length > 0) {
    for (const d of parsed.errors)
      console.error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    process.exit(2)
  }
  return parsed
}

/** The options that decide how a file is checked, as a stable key. */
function groupKey(options) {
  const kept = Object.entries(options)
    .filter(([name]) => !PERMISSIVE.has(name) && !LOCATION.has(name))
    .sort(([a], [b]) => a.localeCompare(b))
  return JSON.stringify(kept)
}

const groups = new Map()
for (const path of tsconfigs()) {
  const { options, fileNames, raw } = parse(path)
  const key = groupKey(options)
  const group = groups.get(key) ?? {
    members: [],
    files: new Set(),
    permissive: {},
    options: raw.compilerOptions ?? {},
    extends: raw.extends,
    dir: join(path, '..'),
  }
  group.members.push(path)
  for (const file of fileNames) group.files.add(file)
  for (const name of PERMISSIVE) if (options[name]) group.permissive[name] = true
  groups.set(key, group)
}

// The programs' tsconfigs live beside the others, so `extends` resolves as it does for them.
const outDir = join(root, 'packages/tsconfig/.typecheck')
rmSync(outDir, { recursive: true, force: true })
mkdirSync(outDir, { recursive: true })

const runs = [...groups.values()].map((group, index) => {
  const config = join(outDir, `group-${index}.json`)
  const base = group.extends?.startsWith('.') ? resolve(group.dir, group.extends) : group.extends
  writeFileSync(
    config,
    JSON.stringify(
      {
        extends: base,
        compilerOptions: { ...group.options, ...group.permissive },
        files: [...group.files],
      },
      null,
      2,
    ),
  )
  const names = group.members.map((m) => m.slice(root.length + 1).replace(/\/tsconfig\.json$/, ''))
  return new Promise((done) => {
    const started = Date.now()
    const child = spawn(
      process.execPath,
      [require.resolve('typescript/bin/tsc'), '-p', config, '--pretty'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1)
      console.log(
        `typecheck ${code === 0 ? 'ok' : 'FAILED'} in ${seconds}s: ${group.files.size} files of ${names.join(', ')}`,
      )
      if (output.trim()) console.log(output.trimEnd())
      done(code === 0)
    })
  })
})

const results = await Promise.all(runs)
rmSync(outDir, { recursive: true, force: true })
process.exit(results.every(Boolean) ? 0 : 1)
