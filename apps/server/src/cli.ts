#!/usr/bin/env node
import { runCli } from './cli/run'

// The `tis` executable: a thin shell around runCli, which does the work and is tested in-process.
runCli(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`tis: unexpected error: ${error instanceof Error ? error.stack : error}\n`)
    process.exitCode = 1
  },
)
