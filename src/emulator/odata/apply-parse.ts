// `$apply` text (docs/emulator.md, "`$apply`"; OData Data Aggregation 4.0, the transformations Claris documents) to a
// list of transformations. One recursive-descent pass over the text; the expressions inside `filter(…)`, `compute(…)`
// and `aggregate(…)` are found by one scan to their closing `,` or `)` and handed to the `$filter` parser, so every
// character is read a bounded number of times. Nesting (`groupby` inside `concat` inside …), the number of
// transformations and the length of every list are capped: past a cap is -1002, never a deep stack.

import { parseFilter } from "./filter-parser.js";
import type { FieldName, FilterNode } from "./filter-ast.js";
import { ODataError, parseFailure, syntaxError } from "./odata-error.js";

export type AggregateMethod = "sum" | "min" | "max" | "average" | "countdistinct";

export type AggregateItem =
  | { readonly kind: "count"; readonly alias: string }
  | { readonly kind: "method"; readonly expression: FilterNode; readonly method: AggregateMethod; readonly alias: string };

export interface ComputeItem {
  readonly expression: FilterNode;
  readonly alias: string;
}

export type ApplyStep =
  | { readonly kind: "aggregate"; readonly items: readonly AggregateItem[] }
  /** `groupby((props)[, inner])`: `inner` runs on each group; empty when not given. */
  | { readonly kind: "groupby"; readonly properties: readonly FieldName[]; readonly inner: readonly ApplyStep[] }
  | { readonly kind: "filter"; readonly predicate: FilterNode }
  | { readonly kind: "compute"; readonly items: readonly ComputeItem[] }
  | { readonly kind: "concat"; readonly branches: readonly (readonly ApplyStep[])[] }
  /** `join(Nav as Alias)`, `outerjoin(…)`: one row per related record (outer: also a row with none). */
  | { readonly kind: "join"; readonly outer: boolean; readonly navigation: string; readonly alias: string };

/** Deepest nesting of sequences (a `groupby`'s inner sequence, a `concat`'s branches); deeper → -1002. */
export const MAX_APPLY_DEPTH = 8;
/** Most transformations in one `$apply`, nested ones included. */
export const MAX_APPLY_STEPS = 100;
/** Most items in one `aggregate`, `compute` or grouping list, and most `concat` branches. */
export const MAX_APPLY_ITEMS = 100;

const METHODS: ReadonlySet<string> = new Set<AggregateMethod>(["sum", "min", "max", "average", "countdistinct"]);

/** Documented by Claris (CL/query-option-apply) but not emulated: a clear 501 naming them, never ignored. */
const NOT_SERVED: ReadonlySet<string> = new Set(["nest", "addnested"]);

export function notServedTransformation(name: string): ODataError {
  return new ODataError(501, "-1", `Error: the $apply transformation '${name}' is not served by the emulator's OData API`);
}

export function parseApply(text: string): ApplyStep[] {
  const parser = new ApplyParser(text);
  const steps = parser.sequence(1);
  parser.end();
  return steps;
}

class ApplyParser {
  private pos = 0;
  private steps = 0;
  /** Where each `(` still open was written: an unclosed one is quoted from there, as `$filter`'s balance check does. */
  private readonly open: number[] = [];

  constructor(private readonly text: string) {}

  end(): void {
    this.blanks();
    if (this.pos < this.text.length) throw syntaxError(this.text.slice(this.pos));
  }

  /** transformation ('/' transformation)* */
  sequence(depth: number): ApplyStep[] {
    if (depth > MAX_APPLY_DEPTH) throw syntaxError(this.text.slice(this.pos));
    const out = [this.transformation(depth)];
    for (;;) {
      this.blanks();
      if (this.text[this.pos] !== "/") return out;
      this.pos++;
      out.push(this.transformation(depth));
    }
  }

  private blanks(): void {
    while (this.text[this.pos] === " " || this.text[this.pos] === "\t") this.pos++;
  }

  /** The end of the text where more was expected: FileMaker's `aggregate(` answer (2.9), or the unclosed `(`. */
  private early(operand: boolean): ODataError {
    const at = this.open.at(-1);
    return operand || at === undefined ? parseFailure(")") : syntaxError(this.text.slice(at));
  }

  private expect(c: string): void {
    this.blanks();
    if (this.text[this.pos] === c) {
      this.pos++;
      if (c === "(") this.open.push(this.pos - 1);
      if (c === ")") this.open.pop();
      return;
    }
    if (this.pos >= this.text.length) throw this.early(false);
    throw syntaxError(this.text.slice(this.pos));
  }

  private transformation(depth: number): ApplyStep {
    this.blanks();
    if (++this.steps > MAX_APPLY_STEPS) throw syntaxError(this.text.slice(this.pos));
    const start = this.pos;
    while (/[A-Za-z]/.test(this.text[this.pos] ?? "")) this.pos++;
    const name = this.text.slice(start, this.pos);
    if (name === "") {
      if (this.pos >= this.text.length || this.text[this.pos] === ")") throw this.early(true);
      throw syntaxError(this.text.slice(this.pos));
    }
    const lower = name.toLowerCase();
    if (NOT_SERVED.has(lower)) throw notServedTransformation(lower);
    if (this.text[this.pos] !== "(") throw syntaxError(this.text.slice(start));
    this.expect("(");
    let step: ApplyStep;
    switch (lower) {
      case "aggregate":
        step = { kind: "aggregate", items: this.list(() => this.aggregateItem()) };
        break;
      case "compute":
        step = { kind: "compute", items: this.list(() => this.computeItem()) };
        break;
      case "filter":
        step = { kind: "filter", predicate: parseFilter(this.expression()) };
        break;
      case "groupby":
        step = this.groupby(depth);
        break;
      case "join":
      case "outerjoin": {
        const { head, alias } = splitAlias(this.expression());
        step = { kind: "join", outer: lower === "outerjoin", navigation: navigationName(head), alias };
        break;
      }
      case "concat": {
        const branches = [this.sequence(depth + 1)];
        for (this.blanks(); this.text[this.pos] === ","; this.blanks()) {
          this.pos++;
          if (branches.length >= MAX_APPLY_ITEMS) throw syntaxError(this.text.slice(this.pos));
          branches.push(this.sequence(depth + 1));
        }
        if (branches.length < 2) throw syntaxError(this.text.slice(this.pos) || ")");
        step = { kind: "concat", branches };
        break;
      }
      // identity, orderby, top, skip, topcount, search, rollup …: not among the documented transformations (2.9).
      default:
        throw syntaxError(name);
    }
    this.expect(")");
    return step;
  }

  /** item (',' item)* up to the closing `)`, which is left for the caller. */
  private list<T>(item: () => T): T[] {
    const out = [item()];
    while (this.text[this.pos] === ",") {
      this.pos++;
      if (out.length >= MAX_APPLY_ITEMS) throw syntaxError(this.text.slice(this.pos));
      out.push(item());
    }
    return out;
  }

  /**
   * The text of one expression: up to the `,` or `)` that closes it, outside quotes and parentheses. An empty one (or
   * the end of the text) is the parse failure at ')' that `aggregate(` gives (2.9).
   */
  private expression(): string {
    const s = this.text;
    const start = this.pos;
    let depth = 0;
    let quote: string | undefined;
    let quoteAt = 0;
    let i = start;
    for (; i < s.length; i++) {
      const c = s[i];
      if (quote !== undefined) {
        if (c === quote) quote = undefined;
        continue;
      }
      if (c === "'" || c === '"') {
        quote = c;
        quoteAt = i;
      } else if (c === "(") depth++;
      else if (c === ")") {
        if (depth === 0) break;
        depth--;
      } else if (c === "," && depth === 0) break;
    }
    if (quote !== undefined) throw syntaxError(s.slice(quoteAt));
    if (i >= s.length) throw this.early(s.slice(start).trim() === "");
    const expression = s.slice(start, i);
    if (expression.trim() === "") throw parseFailure(s[i] ?? ")");
    this.pos = i;
    return expression;
  }

  /** `expr with method as alias` or `$count as alias` (2.9, CL/query-option-apply). */
  private aggregateItem(): AggregateItem {
    const item = this.expression();
    const { head, alias } = splitAlias(item);
    const words = topLevelWords(head);
    const last = words.at(-1);
    if (words.some((w) => w.word.toLowerCase() === "from")) throw syntaxError("from");
    if (last === undefined || words.length < 3 || words.at(-2)!.word.toLowerCase() !== "with") {
      if (head.trim() === "$count") return { kind: "count", alias };
      // A custom aggregate (`Total as T`) or a `with` missing: not among the documented forms.
      throw syntaxError(head.trim() || item);
    }
    const method = last.word.toLowerCase();
    if (!METHODS.has(method)) throw syntaxError(last.word);
    return { kind: "method", expression: parseFilter(head.slice(0, words.at(-2)!.start)), method: method as AggregateMethod, alias };
  }

  private computeItem(): ComputeItem {
    const { head, alias } = splitAlias(this.expression());
    return { expression: parseFilter(head), alias };
  }

  private groupby(depth: number): ApplyStep {
    this.expect("(");
    const properties = this.list(() => this.groupingProperty());
    this.expect(")");
    this.blanks();
    let inner: ApplyStep[] = [];
    if (this.text[this.pos] === ",") {
      this.pos++;
      inner = this.sequence(depth + 1);
    }
    return { kind: "groupby", properties, inner };
  }

  /** A property name: bare, double-quoted or `FMFID:n`, or `Alias/Field` of a join. */
  private groupingProperty(): FieldName {
    this.blanks();
    const s = this.text;
    let name: FieldName;
    if (s[this.pos] === '"') {
      const close = s.indexOf('"', this.pos + 1);
      if (close < 0) throw syntaxError(s.slice(this.pos));
      if (close === this.pos + 1) throw parseFailure('""');
      name = { by: "name", name: s.slice(this.pos + 1, close) };
      this.pos = close + 1;
    } else {
      const m = /^[^\s,/"()';=&*$]+/.exec(s.slice(this.pos, this.pos + 1000));
      if (!m) {
        if (this.pos >= s.length || s[this.pos] === ")") throw this.early(true);
        throw syntaxError(s.slice(this.pos));
      }
      const fmfid = /^FMFID:(\d{1,20})$/.exec(m[0]);
      if (/^id$/i.test(m[0])) throw parseFailure(m[0]);
      if (m[0].toLowerCase() === "rollup" && s[this.pos + m[0].length] === "(") throw syntaxError(m[0]);
      name = fmfid ? { by: "id", id: m[0] } : { by: "name", name: m[0] };
      this.pos += m[0].length;
    }
    this.blanks();
    if (s[this.pos] === "/") {
      // `Alias/Field` of a join; any other path is refused when the columns are known (apply-eval.ts).
      this.pos++;
      const second = /^(?:"([^"]+)"|([^\s,/"()';=&*$]+))/.exec(s.slice(this.pos, this.pos + 1000));
      if (name.by !== "name" || !second) throw syntaxError(s.slice(this.pos - 1));
      this.pos += second[0].length;
      this.blanks();
      if (s[this.pos] === "/") throw syntaxError(s.slice(this.pos));
      return { by: "name", name: `${name.name}/${second[1] ?? second[2]}` };
    }
    return name;
  }
}

/** The navigation a join names: one name, bare or double-quoted. */
function navigationName(head: string): string {
  const text = head.trim();
  const m = /^(?:"([^"]+)"|([^\s,/"()';=&*$]+))$/.exec(text);
  if (!m) throw syntaxError(text || head);
  return m[1] ?? m[2]!;
}

interface Word {
  readonly word: string;
  readonly start: number;
}

/** The blank-separated words of `text` outside quotes and parentheses, with where each starts. */
function topLevelWords(text: string): Word[] {
  const out: Word[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = -1;
  const close = (i: number) => {
    if (start >= 0) out.push({ word: text.slice(start, i), start });
    start = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      continue;
    }
    if (depth === 0 && (c === " " || c === "\t")) {
      close(i);
      continue;
    }
    if (start < 0 && depth === 0) start = i;
    if (c === "'" || c === '"') quote = c;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
  }
  close(text.length);
  return out;
}

/** `… as alias`: the alias (bare or double-quoted, one name) and the text before ` as `. */
function splitAlias(item: string): { head: string; alias: string } {
  const words = topLevelWords(item);
  const n = words.length;
  if (n < 3 || words[n - 2]!.word.toLowerCase() !== "as") {
    if (n >= 1 && words[n - 1]!.word.toLowerCase() === "as") throw parseFailure(")");
    throw syntaxError(item.trim() || item);
  }
  const raw = words[n - 1]!.word;
  let alias: string;
  if (raw.startsWith('"')) {
    if (raw.length < 3 || !raw.endsWith('"') || raw.slice(1, -1).includes('"')) throw syntaxError(raw);
    alias = raw.slice(1, -1);
  } else {
    if (!/^[A-Za-z_\u0080-\uFFFF][\w\u0080-\uFFFF.]*$/.test(raw)) throw syntaxError(raw);
    if (/^id$/i.test(raw)) throw parseFailure(raw);
    alias = raw;
  }
  return { head: item.slice(0, words[n - 2]!.start), alias };
}
