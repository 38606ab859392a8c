import { ACCOUNT_COMMANDS } from './account-commands'
import { ALERT_COMMANDS } from './alert-commands'
import type { Command } from './command'
import { KEY_COMMANDS, MOBILE_TOKEN_COMMANDS } from './key-commands'
import { LIMIT_COMMANDS } from './limit-commands'
import { MONITOR_COMMANDS } from './monitor-commands'
import { PERFORMANCE_COMMANDS } from './performance-commands'
import { MEMBER_COMMANDS, PROJECT_COMMANDS } from './project-commands'
import { READ_COMMANDS } from './read-commands'
import { RELEASE_COMMANDS } from './release-commands'
import { RETENTION_COMMANDS } from './retention-commands'
import { SCRUBBING_COMMANDS } from './scrubbing-commands'
import { SOURCE_COMMANDS } from './source-commands'
import { SOURCEMAP_COMMANDS } from './sourcemap-commands'

// The one table of commands. Each command file exports its group and imports only the `Command`
// type (./command), so no command file imports this table.

/** Every command of `tis`, in the order `tis help` lists them. */
export const COMMANDS: readonly Command[] = [
  ...ACCOUNT_COMMANDS,
  ...PROJECT_COMMANDS,
  ...KEY_COMMANDS,
  ...MEMBER_COMMANDS,
  ...MOBILE_TOKEN_COMMANDS,
  ...LIMIT_COMMANDS,
  ...RETENTION_COMMANDS,
  ...SCRUBBING_COMMANDS,
  ...SOURCE_COMMANDS,
  ...SOURCEMAP_COMMANDS,
  ...ALERT_COMMANDS,
  ...MONITOR_COMMANDS,
  ...READ_COMMANDS,
  ...PERFORMANCE_COMMANDS,
  ...RELEASE_COMMANDS,
]
