import {
  asString,
  cell,
  isObject,
  type Json,
  type OpenApiDocument,
  refName,
  resolve,
  sample,
  typeOf,
} from './openapi'

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

interface Operation {
  readonly method: (typeof METHODS)[number]
  readonly path: string
  readonly op: Json
}

/** The shell variable a curl example uses for a security scheme's credential. */
function credentialVariable(schemeName: string): string {
  return /user/i.test(schemeName) ? 'TIS_TOKEN' : 'API_KEY'
}

function authText(doc: OpenApiDocument, op: Json): string {
  const security = Array.isArray(op['security']) ? (op['security'] as Json[]) : []
  if (security.length === 0) return 'none'
  const schemes = doc.components?.securitySchemes ?? {}
  return security
    .flatMap((requirement) => Object.keys(requirement))
    .map((name) => {
      const scheme = resolve(doc, schemes[name])
      const variable = credentialVariable(name)
      const header =
        scheme['type'] === 'apiKey'
          ? `${asString(scheme['name']) ?? 'X-Api-Key'}: $${variable}`
          : `Authorization: Bearer $${variable}`
      const what = variable === 'TIS_TOKEN' ? 'a user access token' : 'a project API key'
      return `\`${header}\` (${what})`
    })
    .join(' or ')
}

function curlHeader(doc: OpenApiDocument, op: Json): string | undefined {
  const first = Array.isArray(op['security']) ? (op['security'] as Json[])[0] : undefined
  const name = first ? Object.keys(first)[0] : undefined
  if (!name) return undefined
  const scheme = resolve(doc, doc.components?.securitySchemes?.[name])
  const variable = credentialVariable(name)
  return scheme['type'] === 'apiKey'
    ? `${asString(scheme['name']) ?? 'X-Api-Key'}: $${variable}`
    : `Authorization: Bearer $${variable}`
}

function pathVariable(path: string, name: string): string {
  if (name === 'id' && path.startsWith('/api/v1/projects/')) return '$PROJECT_ID'
  // Sentry's paths name the project by its number (the DSN's project part).
  if (name === 'project') return '$PROJECT_NUMBER'
  return `$${name.toUpperCase()}`
}

function curlExample(doc: OpenApiDocument, { method, path, op }: Operation): string {
  const parameters = Array.isArray(op['parameters'])
    ? op['parameters'].map((p) => resolve(doc, p))
    : []
  const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => pathVariable(path, name))
  const query = parameters
    .filter((p) => p['in'] === 'query' && p['required'] === true)
    .map((p) => `${asString(p['name'])}=${encodeURIComponent(String(sample(doc, p['schema'])))}`)
  const lines = [
    `curl -i -X ${method.toUpperCase()} "$TIS_URL${url}${query.length ? `?${query.join('&')}` : ''}"`,
  ]
  const header = curlHeader(doc, op)
  if (header) lines.push(`-H "${header}"`)
  const body = resolve(doc, op['requestBody'])
  const content = isObject(body['content']) ? body['content'] : {}
  const [type, media] = Object.entries(content)[0] ?? []
  let prefix = ''
  if (type?.startsWith('multipart/form-data') && isObject(media) && isObject(media['example'])) {
    // A form: one `-F` per part of the example (`{ part: { filename, content } }`), the content
    // on stdin; curl writes the Content-Type with its boundary.
    const [part, file] = Object.entries(media['example'])[0] ?? []
    const { filename, content } = isObject(file) ? file : {}
    prefix = `printf '%s' '${String(content ?? '').replaceAll("'", "'\\''")}' |\n  `
    lines.push(`-F '${part}=@-;filename=${String(filename ?? part)}'`)
  } else if (type && isObject(media)) {
    lines.push(`-H 'Content-Type: ${type}'`)
    if (type === 'application/json') {
      // A string that names a shell variable (`"$CHANNEL_ID"`, an id the body refers to) is
      // expanded: the single quotes are closed around it.
      const json = JSON.stringify(sample(doc, media['schema']))
        .replaceAll("'", "'\\''")
        .replace(/"\$([A-Z][A-Z0-9_]*)"/g, `"'"$$$1"'"`)
      lines.push(`-d '${json}'`)
    } else {
      const example = asString(media['example']) ?? ''
      const quoted = example
        .trim()
        .split('\n')
        .map((l) => `'${l.replaceAll("'", "'\\''")}'`)
      prefix = `printf '%s\\n' ${quoted.join(' ')} |\n  `
      lines.push('--data-binary @-')
    }
  }
  return `${prefix}${lines.join(' \\\n  ')}`
}

function fieldsTable(doc: OpenApiDocument, schemaRef: unknown): string[] {
  let schema = resolve(doc, schemaRef)
  const out: string[] = []
  let properties = isObject(schema['properties']) ? schema['properties'] : undefined
  // An envelope (`{"event": …}` with its UPPER_CASE alias): describe what it wraps.
  const keys = properties ? Object.keys(properties).filter((k) => k !== k.toUpperCase()) : []
  const only = keys[0]
  if (properties && keys.length === 1 && only && refName(properties[only])) {
    out.push(`Wrapped in \`{"${only}": …}\` (\`${refName(properties[only])}\`):`, '')
    schema = resolve(doc, properties[only])
    properties = isObject(schema['properties']) ? schema['properties'] : undefined
  }
  if (!properties) return out
  const required = new Set(
    Array.isArray(schema['required']) ? (schema['required'] as string[]) : [],
  )
  out.push('| field | type | required | description |', '| --- | --- | --- | --- |')
  for (const [name, value] of Object.entries(properties)) {
    const description =
      asString(resolve(doc, value)['description']) ??
      asString(isObject(value) ? value['description'] : undefined)
    out.push(
      `| \`${name}\` | ${cell(typeOf(doc, value))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(description)} |`,
    )
  }
  out.push('')
  return out
}

function operationMarkdown(doc: OpenApiDocument, operation: Operation): string[] {
  const { method, path, op } = operation
  const out = [`### ${asString(op['summary']) ?? `${method.toUpperCase()} ${path}`}`, '']
  out.push(`\`${method.toUpperCase()} ${path}\``, '')
  const description = asString(op['description'])
  if (description) out.push(description, '')
  out.push(`**Authentication:** ${authText(doc, op)}`, '')
  const parameters = Array.isArray(op['parameters'])
    ? op['parameters'].map((p) => resolve(doc, p))
    : []
  if (parameters.length > 0) {
    out.push(
      '**Parameters**',
      '',
      '| name | in | type | required | description |',
      '| --- | --- | --- | --- | --- |',
    )
    for (const p of parameters) {
      out.push(
        `| \`${asString(p['name'])}\` | ${asString(p['in'])} | ${cell(typeOf(doc, p['schema']))} | ${p['required'] === true ? 'yes' : 'no'} | ${cell(asString(p['description']))} |`,
      )
    }
    out.push('')
  }
  const body = resolve(doc, op['requestBody'])
  if (isObject(body['content'])) {
    for (const [type, media] of Object.entries(body['content'])) {
      const schema = isObject(media) ? media['schema'] : undefined
      out.push(
        `**Request body** (\`${type}\`, ${body['required'] === true ? 'required' : 'optional'}): ${cell(typeOf(doc, schema))}${asString(resolve(doc, schema)['description']) ? ` — ${cell(asString(resolve(doc, schema)['description']))}` : ''}`,
        '',
      )
      if (type.endsWith('json')) out.push(...fieldsTable(doc, schema))
    }
  }
  const responses = isObject(op['responses']) ? op['responses'] : {}
  out.push('**Responses**', '', '| status | body | meaning |', '| --- | --- | --- |')
  for (const [status, value] of Object.entries(responses)) {
    const response = resolve(doc, value)
    const content = isObject(response['content']) ? response['content'] : {}
    const media = Object.values(content)[0]
    const bodyType = isObject(media) && media['schema'] ? typeOf(doc, media['schema']) : '—'
    out.push(`| ${status} | ${cell(bodyType)} | ${cell(asString(response['description']))} |`)
  }
  out.push('', '```bash', curlExample(doc, operation), '```', '')
  return out
}

/**
 * The HTTP API page as Markdown, from an OpenAPI document: per tag, every operation with its
 * method and path, authentication, parameters, request body fields, responses, and a curl example
 * that reads `$TIS_URL`, `$API_KEY`, `$TIS_TOKEN` and path variables such as `$PROJECT_ID` from
 * the shell.
 */
export function openApiToMarkdown(doc: OpenApiDocument): string {
  const operations: Operation[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = (item as Json)[method]
      if (isObject(op)) operations.push({ method, path, op })
    }
  }
  const tagOf = (o: Operation) => (Array.isArray(o.op['tags']) ? String(o.op['tags'][0]) : 'other')
  const tags = (doc.tags ?? []).filter(isObject)
  const tagNames = [...tags.map((t) => String(t['name'])), ...operations.map(tagOf)]
  const out = [
    '# HTTP API',
    '',
    `Generated from the server's OpenAPI document (${doc.info.title}, version ${doc.info.version}), which a running server also serves at \`/api/v1/openapi.json\`.`,
    '',
    doc.info.description ?? '',
    '',
    'The curl examples read these shell variables: `TIS_URL` (e.g. `http://localhost:3000`), `API_KEY` (a project API key), `TIS_TOKEN` (a user access token, for the management and read APIs) and the ids in the path, such as `PROJECT_ID`. [Getting started](getting-started.md) sets them all.',
    '',
  ]
  for (const tag of new Set(tagNames)) {
    const ops = operations.filter((o) => tagOf(o) === tag)
    if (ops.length === 0) continue
    const description = asString(tags.find((t) => t['name'] === tag)?.['description'])
    out.push(`## ${tag}`, '', ...(description ? [description, ''] : []))
    for (const operation of ops) out.push(...operationMarkdown(doc, operation))
  }
  return out.join('\n')
}
