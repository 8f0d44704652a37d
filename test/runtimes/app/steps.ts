// The scenario's steps, in order, and what each reports: shared by scenario.ts (in every runtime) and
// runtimes.test.ts (which expects each step, by name, to be ok). No imports, so that the test can load it alone.

export const STEPS = ["login", "create with portal rows", "get", "find with q", "upload a Blob", "download", "script", "stale modId", "logout"] as const;
export type Step = (typeof STEPS)[number];

export interface StepResult {
  step: string;
  ok: boolean;
  /** What the step saw, or why it failed. */
  detail: string;
}
