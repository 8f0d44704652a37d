// The page's scenario steps, in order, and what each reports: shared by app.ts (run in Chromium) and
// chromium.test.ts (which expects each step, by name, to be ok). No imports, so that the test can load it alone.

export const STEPS = ["create with portal rows", "get", "find with q", "script", "stale modId", "never-answering script", "missing record"] as const;
export type Step = (typeof STEPS)[number];

export interface StepResult {
  name: string;
  ok: boolean;
  /** What the step saw, or why it failed. */
  detail: string;
}

/** What the page leaves on `window` for the test to read. */
export interface PageReport {
  __steps?: StepResult[];
  __done?: boolean;
}

/** The bridge script's name the page calls, the web viewer's name, and the short timeout of the never-answering call. */
export const BRIDGE_SCRIPT = "fmgen webviewer";
export const WEB_VIEWER = "web";
export const SHORT_TIMEOUT_MS = 300;
