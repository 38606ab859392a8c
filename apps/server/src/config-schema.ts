import * as z from 'zod'
import type { ConfigVariable } from './config-rules'
import { ALERT_VARIABLES } from './config-variables-alerts'
import { LIMIT_VARIABLES } from './config-variables-limits'
import { PIPELINE_VARIABLES } from './config-variables-pipeline'
import { RETENTION_VARIABLES } from './config-variables-retention'
import { SERVER_VARIABLES } from './config-variables-server'
import { SOURCE_VARIABLES } from './config-variables-source'
import { SOURCEMAP_VARIABLES } from './config-variables-sourcemaps'
import { WEB_VARIABLES } from './config-variables-web'

// The server's configuration, read only from the environment. Each variable is described once
// — name, description, default, rule — in the config-variables-*.ts files, and the configuration
// reference in docs is generated from CONFIG_VARIABLES, so the two cannot drift.

/** Every variable the server reads, in the order the configuration reference lists them. */
export const CONFIG_VARIABLES = {
  ...SERVER_VARIABLES,
  ...LIMIT_VARIABLES,
  ...WEB_VARIABLES,
  ...PIPELINE_VARIABLES,
  ...RETENTION_VARIABLES,
  ...SOURCE_VARIABLES,
  ...SOURCEMAP_VARIABLES,
  ...ALERT_VARIABLES,
} as const satisfies Record<string, ConfigVariable>

/** The name of one configuration variable. */
export type ConfigVariableName = keyof typeof CONFIG_VARIABLES

type Variables = typeof CONFIG_VARIABLES
/** The parsed value of every variable: `undefined` for unset variables without a default. */
export type ParsedEnvironment = {
  -readonly [K in ConfigVariableName]: Variables[K]['default'] extends string
    ? z.output<Variables[K]['schema']>
    : z.output<Variables[K]['schema']> | undefined
}

// Blank values count as unset, as container runtimes often pass `FOO=` for "not configured".
const unsetWhenBlank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v)

function variableSchema({ default: fallback, schema, description }: ConfigVariable) {
  const value =
    fallback === undefined ? schema.optional() : z.preprocess((v) => v ?? fallback, schema)
  return z.preprocess(unsetWhenBlank, value).meta({ description, default: fallback })
}

/**
 * The zod schema of the whole environment: an object keyed by variable name whose output has
 * every default applied. Unknown variables are ignored.
 */
export const configEnvSchema = z
  .object(
    Object.fromEntries(
      Object.entries(CONFIG_VARIABLES).map(([name, variable]) => [name, variableSchema(variable)]),
    ) as unknown as Record<ConfigVariableName, z.ZodType>,
  )
  .superRefine((env, ctx) => {
    if (env['SERVICE_ANALYTICS_ENABLED'] === true && env['SERVICE_ANALYTICS_URL'] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['SERVICE_ANALYTICS_URL'],
        message: 'is required when SERVICE_ANALYTICS_ENABLED is true',
      })
    }
    if (env['SERVICE_SMTP_HOST'] !== undefined && env['SERVICE_SMTP_FROM'] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['SERVICE_SMTP_FROM'],
        message: 'is required when SERVICE_SMTP_HOST is set',
      })
    }
  })
