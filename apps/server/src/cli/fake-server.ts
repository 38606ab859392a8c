import { runCli } from './run'

/** One request the CLI sent to the fake server. */
export interface SentRequest {
  method: string
  url: string
  headers: Record<string, string>
  body: unknown
}

/**
 * Runs the CLI (for tests) against a fake `fetch` answering `answer` to every request; resolves
 * the exit code, what was printed and every request sent.
 */
export async function runAgainstFakeServer(
  argv: string[],
  answer: { status: number; body?: unknown },
  env: Record<string, string>,
) {
  const sent: SentRequest[] = []
  let stdout = ''
  let stderr = ''
  const fetch = (async (url: string, init: RequestInit) => {
    sent.push({
      method: String(init.method),
      url,
      headers: init.headers as Record<string, string>,
      body: init.body === undefined ? undefined : JSON.parse(String(init.body)),
    })
    const text = answer.body === undefined ? null : JSON.stringify(answer.body)
    return new Response(text, { status: answer.status })
  }) as typeof globalThis.fetch
  const code = await runCli(argv, {
    env,
    fetch,
    stdout: (t) => {
      stdout += t
    },
    stderr: (t) => {
      stderr += t
    },
  })
  return { code, stdout, stderr, sent }
}
