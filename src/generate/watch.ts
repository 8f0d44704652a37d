import { watch, type FSWatcher } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import { globBase, isGlob, TEMP_FILE_SUFFIX } from "../project/index.js";
import { generateAndWrite } from "./from-settings.js";
import type { GenerateSettings } from "./settings.js";
import type { WriteReport } from "./write.js";

export type WatchResult = { settings: GenerateSettings; report: WriteReport } | { error: unknown };

export interface WatchOptions {
  /** Resolves when watching should end; the watcher then closes and the last run finishes. */
  stop: Promise<void>;
  /** Called after every run, the first one included. */
  onResult: (result: WatchResult) => void;
  /** Folders to watch while the settings cannot be read (the config file's folder). */
  fallbackDirs?: readonly string[];
  /** Quiet time after a change before regenerating (default 100 ms): editors save in several steps. */
  debounceMs?: number;
}

/** The folders whose changes can change the output: layout and table folders, folders of their files, glob bases, the config's. */
export async function watchTargets(settings: GenerateSettings): Promise<{ dir: string; recursive: boolean }[]> {
  const targets = new Map<string, boolean>();
  const add = (dir: string, recursive: boolean) => targets.set(dir, (targets.get(dir) ?? false) || recursive);
  for (const entry of [...settings.layouts, ...settings.tables]) {
    if (isGlob(entry)) add(globBase(entry), entry.includes("**"));
    else add((await stat(entry).then((s) => s.isDirectory(), () => false)) ? entry : dirname(entry), false);
  }
  if (settings.configFile !== undefined) add(dirname(settings.configFile), false);
  return [...targets].map(([dir, recursive]) => ({ dir, recursive }));
}

/**
 * `fmgen generate --watch`: generates once, then again after each change to a watched folder, until `stop`.
 * Runs never overlap; a failed run (a broken description) is reported and watching goes on.
 */
export async function watchAndGenerate(loadSettings: () => Promise<GenerateSettings>, options: WatchOptions): Promise<void> {
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let queue = Promise.resolve();
  let stopped = false;

  const sync = (targets: readonly { dir: string; recursive: boolean }[]) => {
    const wanted = new Map(targets.map((t) => [`${t.recursive ? "r" : "f"}:${t.dir}`, t]));
    for (const [key, watcher] of watchers) {
      if (!wanted.has(key)) {
        watcher.close();
        watchers.delete(key);
      }
    }
    for (const [key, target] of wanted) {
      if (watchers.has(key)) continue;
      try {
        const watcher = watch(target.dir, { recursive: target.recursive }, (_event, file) => {
          if (typeof file === "string" && file.endsWith(TEMP_FILE_SUFFIX)) return;
          schedule();
        });
        watcher.on("error", () => undefined);
        watchers.set(key, watcher);
      } catch {
        // A folder that does not exist (yet) cannot be watched; the next run tries again.
      }
    }
  };

  const runOnce = async () => {
    let settings: GenerateSettings | undefined;
    let result: WatchResult;
    try {
      settings = await loadSettings();
      result = { settings, report: await generateAndWrite(settings) };
    } catch (error) {
      result = { error };
    }
    if (!stopped) {
      // After a failed run, keep watching what was watched, plus the fallback folders.
      const previous = [...watchers.keys()].map((key) => ({ dir: key.slice(2), recursive: key.startsWith("r:") }));
      const fallback = (options.fallbackDirs ?? []).map((dir) => ({ dir, recursive: false }));
      sync(settings ? await watchTargets(settings) : [...previous, ...fallback]);
    }
    // Reported once the watchers are in place, so that a change made after the report is seen.
    options.onResult(result);
  };

  const schedule = () => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      queue = queue.then(runOnce);
    }, options.debounceMs ?? 100);
  };

  queue = queue.then(runOnce);
  await options.stop;
  stopped = true;
  clearTimeout(timer);
  await queue;
  for (const watcher of watchers.values()) watcher.close();
}
