export { type BrowserOptions, browserIntegration } from './browser-integration'
export { type DebugImage, debugIdsByFile, debugImages } from './debug-ids'
export { debugIdsIntegration } from './debug-ids-integration'
export { capturePageLoad, type PageLoadOptions } from './page-load'
export {
  buildPageLoadSpans,
  isSdkRequest,
  type NavigationTimingLike,
  type PageLoadShape,
  type PageLoadSpan,
  type PageLoadTimings,
  type ResourceTimingLike,
} from './spans'
export {
  cumulativeLayoutShift,
  type EventTimingLike,
  interactionToNextPaint,
  type LayoutShiftLike,
  observeWebVitals,
  type VitalsObserver,
  type WebVitals,
} from './vitals'
