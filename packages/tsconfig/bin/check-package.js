#!/usr/bin/env node
// Checks the shape of the package in the current directory exactly as it would be published:
// packs it with pnpm (so `publishConfig` overrides apply), then runs publint and
// @arethetypeswrong/cli on that tarball.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const out = mkdtempSync(join(tmpdir(), 'tis-pack-'))
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' })
try {
  execFileSync('pnpm', ['pack', '--pack-destination', out], {
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const tarball = join(out, readdirSync(out).find((f) => f.endsWith('.tgz')) ?? '')
  run('publint', ['--strict', '--pack', 'pnpm'])
  run('attw', [tarball, '--format', 'table-flipped'])
} catch {
  process.exitCode = 1
} finally {
  rmSync(out, { recursive: true, force: true })
}
