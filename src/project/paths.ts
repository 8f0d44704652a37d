import { relative, sep } from "node:path";

/** `path` with `/` between its segments, as files, reports and JSON show it (on Windows, `\` becomes `/`). */
export function toPosixPath(path: string, separator: string = sep): string {
  return separator === "/" ? path : path.split(separator).join("/");
}

/** The path from `from` to `to`, `/`-separated: "" when they are the same (each caller says what to show then). */
export function posixRelative(from: string, to: string): string {
  return toPosixPath(relative(from, to));
}
