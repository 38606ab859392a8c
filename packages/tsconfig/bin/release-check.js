#!/usr/bin/env node
// `pnpm release:check`: rehearses a release without touching the working tree or the registry.
// In a temporary copy of HEAD (git archive: committed files only), it installs, versions the
// pending changesets (`changeset version`), checks each bumped package's CHANGELOG.md got its
// entry, builds the published packages and runs `pnpm -r publish --dry-run`. Prints what would be
// published; exits 1 on any failure. See docs/releasing.md.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// RELEASE_CHECK_REF rehearses another commit (default HEAD).
const ref = process.env.RELEASE_CHECK_REF || 'HEAD'
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim()
const work = mkdtempSync(join(tmpdir(), 'tis-release-'))
const copy = join(work, 'repo')
const started = Date.now()

/** Runs a command in the copy, its output shown; throws when it fails. */
function run(command, args, options = {}) {
  console.log(`\n$ ${command} ${args.join(' ')}`)
  return execFileSync(command, args, {
    cwd: copy,
    stdio: options.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    encoding: 'utf8',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', CI: process.env.CI ?? 'true' },
  })
}

/** The published (non-private) packages of the copy: name → { dir, version, files }. */
function publishedPackages() {
  const found = new Map()
  for (const name of readdirSync(join(copy, 'packages'))) {
    const file = join(copy, 'packages', name, 'package.json')
    if (!existsSync(file)) continue
    const pkg = JSON.parse(readFileSync(file, 'utf8'))
    if (!pkg.private)
      found.set(pkg.name, { dir: join(copy, 'packages', name), version: pkg.version })
  }
  return found
}

try {
  mkdirSync(copy)
  // A copy, not a worktree: nothing is written to the repository's .git or working tree.
  const archive = execFileSync('git', ['-C', root, 'archive', '--format=tar', ref], {
    maxBuffer: 1 << 30,
  })
  execFileSync('tar', ['-x', '-C', copy], { input: archive })
  run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--reporter=silent'])

  const before = publishedPackages()
  run('pnpm', ['changeset', 'version'])
  const after = publishedPackages()
  const bumped = [...after].filter(([name, { version }]) => before.get(name)?.version !== version)
  const problems = []
  for (const [name, { dir, version, files }] of after) {
    if (Array.isArray(files) && !files.includes('CHANGELOG.md')) {
      problems.push(`${name}: "files" must list CHANGELOG.md, or the tarball has no changelog`)
    }
    const changelog = join(dir, 'CHANGELOG.md')
    if (!existsSync(changelog)) {
      problems.push(`${name}: no CHANGELOG.md`)
      continue
    }
    const text = readFileSync(changelog, 'utf8')
    if (!text.startsWith(`# ${name}\n`))
      problems.push(`${name}: CHANGELOG.md must start "# ${name}"`)
    if (bumped.some(([n]) => n === name) && !text.includes(`\n## ${version}\n`)) {
      problems.push(`${name}: changeset version wrote no "## ${version}" entry in CHANGELOG.md`)
    }
  }
  if (problems.length > 0) throw new Error(`CHANGELOG problems:\n  ${problems.join('\n  ')}`)

  const filters = [...after.keys()].map((name) => `--filter=${name}`)
  run('pnpm', ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only', ...filters])
  const output = run('pnpm', ['-r', 'publish', '--dry-run', '--no-git-checks'], { capture: true })
  process.stdout.write(output)

  // pnpm prints one "+ name@version" line per package it would publish.
  const publishing = [...output.matchAll(/^\+ (@?[\w./-]+)@(\S+)$/gm)].map((m) => `${m[1]}@${m[2]}`)
  console.log(`\nrelease:check passed in ${Math.round((Date.now() - started) / 1000)} s.`)
  console.log(`Versioned by the pending changesets (${bumped.length}):`)
  for (const [name, { version }] of bumped) {
    console.log(`  ${name} ${before.get(name)?.version} -> ${version}`)
  }
  console.log(`Would publish (${publishing.length}):`)
  for (const line of publishing) console.log(`  ${line}`)
} catch (error) {
  console.error(`\nrelease:check failed: ${error instanceof Error ? error.message : error}`)
  process.exitCode = 1
} finally {
  rmSync(work, { recursive: true, force: true })
}
