import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

// An installed headless Chromium (Debian's `chromium` package) for the Web Viewer's browser test, which
// playwright-core drives without downloading a browser of its own.

/** The path of `chromium` (or `chromium-browser`) on the PATH, or undefined when there is none. */
export function findChromium(): string | undefined {
  for (const name of ["chromium", "chromium-browser"]) {
    for (const dir of (process.env.PATH ?? "").split(delimiter)) {
      if (!dir) continue;
      const path = join(dir, name);
      try {
        accessSync(path, constants.X_OK);
        return path;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** Why the browser test does not run here, or undefined when it does (FMGEN_REQUIRE_CHROMIUM=1 makes a missing browser fail it). */
export function chromiumSkipReason(): string | undefined {
  if (findChromium() !== undefined || process.env.FMGEN_REQUIRE_CHROMIUM === "1") return undefined;
  return "chromium is not installed: the Web Viewer's browser test is skipped (apt-get install chromium; FMGEN_REQUIRE_CHROMIUM=1 makes it fail instead)";
}
