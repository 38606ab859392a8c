export { formatArgs } from './format'
export {
  type ConsoleMethod,
  type ConsoleOptions,
  consoleIntegration,
  instrumentConsole,
} from './instrument'
