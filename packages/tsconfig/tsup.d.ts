import type { Options } from 'tsup'

/** The shared tsup configuration; see tsup.js. */
export declare function defineTisConfig(overrides?: Partial<Options>): Options
