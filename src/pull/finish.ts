import { writeFilesAtomically } from "../project/index.js";
import type { DescriptionStatus } from "./description-file.js";
import type { PullSettings } from "./settings.js";
import type { PullState } from "./state.js";

/** What a layout pull's result and a table pull's both say, besides their descriptions. */
export interface PullHead {
  server: string;
  database: string;
  /** The project's folder (the config's): the report shows paths relative to it. */
  root: string;
  check: boolean;
}

export interface PullTotals {
  /** Files written, absolute (none for `--check`). */
  written: string[];
  /** A description is missing or differs from the server, or one could not be read. */
  drift: boolean;
  failed: boolean;
}

export function pullHead(settings: PullSettings, check: boolean): PullHead {
  return { server: settings.server, database: settings.database, root: settings.root, check };
}

/**
 * How both pulls end: fmgen.pulled.json joins the files to write when what the server said changed and something was
 * read (a pull whose every read failed leaves it as it is), then every file is written at once, or, for `--check`,
 * none; `outcomes`, one per description, say whether anything drifts or failed.
 */
export async function finishPull(
  settings: PullSettings,
  state: PullState,
  { check, read }: { check: boolean; read: boolean },
  pending: { file: string; contents: string }[],
  outcomes: readonly { status: DescriptionStatus | "failed" | "unread" | "none" }[],
): Promise<PullTotals> {
  const stateText = state.format();
  if (stateText !== state.readText && read) pending.push({ file: settings.stateFile, contents: stateText });
  if (!check) await writeFilesAtomically(pending);
  const failed = outcomes.some((o) => o.status === "failed");
  return { written: check ? [] : pending.map((p) => p.file), drift: failed || outcomes.some((o) => o.status === "created" || o.status === "updated"), failed };
}
