import type { ApiClient } from './client'

/** What a command gets: the API client, its positional arguments and the parsed options. */
export interface CommandContext {
  readonly client: ApiClient
  /** Positional arguments after the command words, as many as the command declares. */
  readonly args: readonly string[]
  readonly options: {
    readonly kind?: string | undefined
    readonly name?: string | undefined
    /** `limits set --requests <n>` */
    readonly requests?: string | undefined
    /** `limits set --period-seconds <n>` */
    readonly periodSeconds?: string | undefined
    /** `limits set --auth-failures <n>` */
    readonly authFailures?: string | undefined
    /** `retention set --days <n|default>` */
    readonly days?: string | undefined
    /** Query flags of the read commands, by flag name (e.g. `trace-id`). */
    readonly query?: Readonly<Record<string, string | undefined>>
  }
}

/** A command's outcome: the API's JSON (for `--json`) and how to render it for people. */
export interface CommandResult {
  readonly json: unknown
  /** Formats the human-readable text; not called with `--json`. */
  readonly human: () => string
}

/** One CLI command, e.g. `projects create`. */
export interface Command {
  /** The command words, e.g. `projects create`. */
  readonly name: string
  /** Positional argument names, e.g. `['<project_id>', '<key_id>']`. */
  readonly args: readonly string[]
  /** Option synopsis shown in help, e.g. `--kind <integration_kind>`. */
  readonly options?: string
  readonly summary: string
  /** A usage problem found before calling the API (e.g. a missing required option). */
  validate?(context: Omit<CommandContext, 'client'>): string | undefined
  run(context: CommandContext): Promise<CommandResult>
}

/** A usage problem a command finds while running (a directory with nothing to upload): exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}
