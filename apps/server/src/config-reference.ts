import { CONFIG_VARIABLES } from './config-schema'

/**
 * The configuration reference as a Markdown table (variable, default, description), generated
 * from {@link CONFIG_VARIABLES}; docs/server.md embeds it between `config-table` markers.
 */
export function configReferenceMarkdown(): string {
  const rows = Object.entries(CONFIG_VARIABLES).map(([name, variable]) => {
    const fallback =
      variable.default === undefined
        ? '(unset)'
        : variable.default === ''
          ? '(empty)'
          : `\`${variable.default}\``
    return `| \`${name}\` | ${fallback} | ${variable.description} |`
  })
  return ['| variable | default | description |', '| --- | --- | --- |', ...rows].join('\n')
}
