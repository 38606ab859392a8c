import type * as z from 'zod'

/** Formats a path such as `['context', 'tags', 'env']` or `['allowed_event_types', 1]`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out === '' ? String(part) : `.${String(part)}`
  }
  return out
}

/** One human-readable message per zod issue, naming the field: `message can't be blank`. */
export function formatIssues(issues: ReadonlyArray<z.core.$ZodIssue>, prefix: PropertyKey[] = []) {
  const out: Array<{ path: PropertyKey[]; message: string }> = []
  for (const issue of issues) {
    const path = [...prefix, ...issue.path]
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ path: [...path, key], message: 'is not a permitted property' })
      }
    } else {
      out.push({ path, message: issue.message })
    }
  }
  return out
}

/** A located validation problem before it is rendered. */
export interface Problem {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/**
 * Renders problems in a stable order: by the position of their top-level field in `order`
 * (the documented field order), unknown fields after, then by path and message.
 */
export function renderProblems(problems: readonly Problem[], order: readonly string[]): string[] {
  const rank = (p: Problem) => {
    const i = order.indexOf(String(p.path[0] ?? ''))
    return i === -1 ? order.length : i
  }
  const rendered = problems.map((p) => ({
    rank: rank(p),
    key: formatPath(p.path),
    text: p.path.length > 0 ? `${formatPath(p.path)} ${p.message}` : p.message,
  }))
  rendered.sort((a, b) => a.rank - b.rank || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return [...new Set(rendered.map((r) => r.text))]
}
