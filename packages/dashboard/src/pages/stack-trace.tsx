/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import type { Html } from '../layout'
import { LocalVariables } from './frame-vars'
import {
  hasMapFields,
  MapContext,
  MapProblem,
  type RawFrame,
  SentAs,
  type ShownFrame,
  where,
} from './map-frames'
import { Excerpt, isOk, NoSource } from './source-frames'

/** One frame: its original lines from the map, else its excerpt or why there is none. */
function FrameItem({ frame: f, settings }: { frame: ShownFrame; settings: string }): Html {
  const name = f.function || '<anonymous>'
  return (
    <li class={(f.app ?? f.in_app) ? 'in-app' : 'not-in-app'}>
      <code>{name}</code> <span class="muted">{where(f)}</span>
      <SentAs frame={f} />
      {/* Lines from the map are the code that ran: the code host's excerpt would only repeat them. */}
      {f.context_line !== undefined ? (
        <MapContext frame={f} />
      ) : isOk(f.source) ? (
        <Excerpt source={f.source} label={`${name}, ${f.source.path} line ${f.source.line}`} />
      ) : f.sourcemap && f.source?.status === 'not_in_repository' ? null : (
        // A bundle's URL is never the repository's: for such a frame the fix is a source map.
        <NoSource source={f.source} settings={settings} />
      )}
      <MapProblem frame={f} />
      <LocalVariables vars={f.vars} frame={name} />
    </li>
  )
}

/** Runs of frames: library frames (the stored `in_app: false`) next to each other form one run. */
function runsOf(frames: readonly ShownFrame[]): ShownFrame[][] {
  // With no application frame at all, folding would hide the whole trace.
  if (!frames.some((f) => f.app !== false)) return frames.map((f) => [f])
  const runs: ShownFrame[][] = []
  for (const f of frames) {
    const last = runs.at(-1)
    if (f.app === false && last?.[0]?.app === false) last.push(f)
    else runs.push([f])
  }
  return runs
}

/** Original or as sent: plain links, so the switch works without JavaScript and can be shared. */
function FrameSwitch({ raw, here }: { raw: boolean; here: string }): Html {
  return (
    <p class="frame-switch">
      {'Frames: '}
      <a href={`${here}#stack-trace`} aria-current={raw ? undefined : 'true'}>
        original (source maps)
      </a>
      {' · '}
      <a href={`${here}?frames=raw#stack-trace`} aria-current={raw ? 'true' : undefined}>
        as sent (minified)
      </a>
    </p>
  )
}

/** The frames exactly as the SDK sent them (`raw`, else the frame itself). */
function RawFrames({ frames }: { frames: readonly ShownFrame[] }): Html {
  const sent = (f: ShownFrame): RawFrame => f.raw ?? f
  return (
    <ol class="frames raw">
      {frames.map((f) => {
        const name = sent(f).function || '<anonymous>'
        return (
          <li>
            <code>{name}</code> <span class="muted">{where(sent(f))}</span>
            <LocalVariables vars={f.vars} frame={name} />
          </li>
        )
      })}
    </ol>
  )
}

/**
 * The stack frames of an event: resolved frames with their original source, library frames
 * folded into a `<details>`, and — when the source maps changed any — a switch (`?frames=raw`)
 * to the frames as sent.
 */
export function StackTrace(props: {
  frames: readonly ShownFrame[]
  /** The settings section that fixes a missing excerpt. */
  settings: string
  /** Show the frames as sent. */
  raw: boolean
  /** The page's path, for the switch's links. */
  here: string
}): Html {
  const { frames, settings } = props
  if (frames.length === 0) return <p class="muted">No stack frames were sent.</p>
  const mapped = hasMapFields(frames)
  const raw = mapped && props.raw
  return (
    <>
      {mapped && <FrameSwitch raw={raw} here={props.here} />}
      {raw ? (
        <RawFrames frames={frames} />
      ) : (
        <ol class="frames">
          {runsOf(frames).map((run) =>
            run.length > 1 ? (
              <li class="library">
                <details>
                  <summary>{`${run.length} library frames`}</summary>
                  <ol class="frames">
                    {run.map((f) => (
                      <FrameItem frame={f} settings={settings} />
                    ))}
                  </ol>
                </details>
              </li>
            ) : (
              <FrameItem frame={run[0]!} settings={settings} />
            ),
          )}
        </ol>
      )}
    </>
  )
}
