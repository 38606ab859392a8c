import { spawn } from 'node:child_process'

/** A running `tis worker` process. */
export interface RunningWorker {
  /** `performance.now()` when the worker logged that its drainer started. */
  readonly startedAt: number
  /** SIGTERM, then SIGKILL after 20 s; resolves once the process exited. */
  stop(): Promise<void>
}

/**
 * Starts `node <cli> worker` with `env` (log level info, so it announces its start) and waits
 * until it logs `worker started`: the drainer's first claim follows at once, so the
 * drain timing starts there and leaves out Node's boot and the migration check.
 */
export function startWorker(cli: string, env: Record<string, string>): Promise<RunningWorker> {
  const child = spawn(process.execPath, [cli, 'worker'], {
    env: { ...process.env, ...env, SERVICE_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    child.kill('SIGTERM')
    await exited
    clearTimeout(timer)
  }
  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => {
      void stop().then(() => reject(new Error(`tis worker did not start in 60 s: ${output}`)))
    }, 60_000)
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8_000)
      if (output.includes('worker started')) {
        clearTimeout(timeout)
        child.stdout.off('data', onData)
        child.stdout.resume()
        resolve({ startedAt: performance.now(), stop })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8_000)
    })
    void exited.then(() => {
      clearTimeout(timeout)
      reject(new Error(`tis worker exited (${child.exitCode}): ${output}`))
    })
  })
}
