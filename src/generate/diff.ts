/**
 * Unified diffs (`diff -u` format, 3 lines of context) for `fmgen generate --check`. Myers' O(ND) algorithm;
 * past `MAX_EDITS` differing lines it gives up finding a shortest script and shows one hunk replacing everything.
 */

const CONTEXT = 3;
const MAX_EDITS = 4000;

type Op = { kind: " " | "-" | "+"; line: string };

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Myers' shortest edit script, or undefined past MAX_EDITS. */
function myers(a: readonly string[], b: readonly string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] holds the furthest x on each diagonal k before round d.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, offset);
    }
  }
  return undefined;
}

function backtrack(trace: readonly Int32Array[], a: readonly string[], b: readonly string[], offset: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : v[offset + prevK]!;
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ kind: " ", line: a[x]! });
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: "+", line: b[prevY]! });
      else ops.push({ kind: "-", line: a[prevX]! });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

/** A unified diff from `before` to `after`; "" when they are equal. */
export function unifiedDiff(before: string, after: string, fromFile: string, toFile: string): string {
  if (before === after) return "";
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = myers(a, b) ?? [...a.map((line): Op => ({ kind: "-", line })), ...b.map((line): Op => ({ kind: "+", line }))];
  const out = [`--- ${fromFile}`, `+++ ${toFile}`];
  // Group the changes into hunks with CONTEXT lines around them.
  let i = 0;
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.kind === " ") i++;
    if (i >= ops.length) break;
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    for (;;) {
      while (end < ops.length && ops[end]!.kind !== " ") end++;
      let run = end;
      while (run < ops.length && ops[run]!.kind === " ") run++;
      if (run < ops.length && run - end <= 2 * CONTEXT) end = run;
      else {
        end = Math.min(ops.length, end + CONTEXT);
        break;
      }
    }
    let aStart = 0;
    let bStart = 0;
    for (let j = 0; j < start; j++) {
      if (ops[j]!.kind !== "+") aStart++;
      if (ops[j]!.kind !== "-") bStart++;
    }
    const hunk = ops.slice(start, end);
    const aCount = hunk.filter((op) => op.kind !== "+").length;
    const bCount = hunk.filter((op) => op.kind !== "-").length;
    out.push(`@@ -${range(aStart, aCount)} +${range(bStart, bCount)} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
    i = end;
  }
  if (out.length === 2) out.push("(the files differ only in their final newline)");
  return `${out.join("\n")}\n`;
}

function range(start: number, count: number): string {
  // diff -u numbers lines from 1; an empty range names the line before it.
  const first = count === 0 ? start : start + 1;
  return count === 1 ? `${first}` : `${first},${count}`;
}
