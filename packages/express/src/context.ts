import { AsyncLocalStorage } from 'node:async_hooks'
import type { ScopeOptions, ScopeProvider } from '@tis/sdk'
import { generateSpanId, generateTraceId, generateUuid } from '@tis/sdk'
import type { Request } from 'express'
import type { ExpressOptions } from './options'
import { parseTraceparent } from './traceparent'

/** The correlation ids of the request being handled (see {@link getRequestContext}). */
export interface RequestContext {
  /** The trace: the caller's (from `traceparent`) or a fresh one. */
  readonly traceId: string
  /** The `x-request-id` header (or `requestIdHeader`), else a generated UUID. */
  readonly requestId: string
  /** The request's root span, when `captureRequestSpans` is on. */
  readonly spanId?: string
  /** The caller's span, from `traceparent`. */
  readonly parentSpanId?: string
}

/** A request's context plus what its transaction needs. */
export interface RequestState extends RequestContext {
  /** `performance.now()` at the start. */
  readonly start: number
  /** Epoch milliseconds at the start. */
  readonly startedAt: number
  /** Set by {@link setRequestUser}: the session's `did` and the captures' `userId`. */
  userId?: string | number | undefined
  /** How the request's session ends when not `exited`: a captured error, or a crash. */
  outcome?: 'errored' | 'crashed'
}

const storage = new AsyncLocalStorage<RequestState>()
const states = new WeakMap<object, RequestState>()
// Printable ASCII without spaces, bounded: a header cannot smuggle in a huge or odd id.
const REQUEST_ID = /^[!-~]{1,200}$/

/** The correlation ids of the request whose handler is running, or `undefined` outside one. */
export function getRequestContext(): RequestContext | undefined {
  const state = storage.getStore()
  if (!state) return undefined
  const { traceId, requestId, spanId, parentSpanId } = state
  return {
    traceId,
    requestId,
    ...(spanId ? { spanId } : {}),
    ...(parentSpanId ? { parentSpanId } : {}),
  }
}

/** The state of the request whose handler is running (captures inside it update it). */
export const currentRequest = (): RequestState | undefined => storage.getStore()

/**
 * Sets the user of the request being handled (no-op outside one): captures inside it carry it as
 * `userId`, and its request-mode session is counted under it (`did`).
 */
export function setRequestUser(userId: string | number | undefined): void {
  const state = storage.getStore()
  if (state) state.userId = userId
}

/**
 * The scope provider `expressMiddleware` installs: captures inside a request get its trace and
 * request ids, and spans without a parent become children of its root span (else of the caller's).
 */
export const requestScope: ScopeProvider = () => {
  const state = storage.getStore()
  if (!state) return undefined
  // An undefined userId is as good as none: the capture's own options are merged over it.
  const scope = { traceId: state.traceId, requestId: state.requestId, userId: state.userId }
  const parentSpanId = state.spanId ?? state.parentSpanId
  return (parentSpanId ? { ...scope, parentSpanId } : scope) as ScopeOptions
}

/** Starts a request: its ids, from its headers, kept for the error handler. */
export function openRequest(req: Request, options: ExpressOptions): RequestState {
  const header = req.headers[(options.requestIdHeader ?? 'x-request-id').toLowerCase()]
  const caller = parseTraceparent(req.headers['traceparent'])
  const state: RequestState = {
    traceId: caller?.traceId ?? generateTraceId(),
    requestId: typeof header === 'string' && REQUEST_ID.test(header) ? header : generateUuid(),
    ...(options.captureRequestSpans ? { spanId: generateSpanId() } : {}),
    ...(caller ? { parentSpanId: caller.parentSpanId } : {}),
    start: performance.now(),
    startedAt: Date.now(),
  }
  states.set(req, state)
  return state
}

/** The state `openRequest` kept for `req`, if the middleware saw it. */
export const stateOf = (req: Request): RequestState | undefined => states.get(req)

/** Runs `fn` inside the request's context (what handlers and `getRequestContext` see). */
export const runInRequest = (state: RequestState, fn: () => void): void => storage.run(state, fn)

/** Runs `fn` outside any request context: the middleware's own captures pass explicit ids. */
export const runOutside = (fn: () => void): void => storage.exit(fn)
