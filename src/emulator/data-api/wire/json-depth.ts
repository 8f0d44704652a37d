import { EmulatorError } from "../../hosted-file/fm-error.js";
import { describeInput, describePath } from "../../hosted-file/input/input-text.js";
import { NumberToken } from "../../../runtime/core/json-numbers.js";

/**
 * How deeply a request's JSON may nest arrays and objects. The Data API's deepest shape, a portal row in a
 * create (`{ portalData: { P: [ { field: value } ] } }`), is 4 levels; anything near this limit is not a
 * request but an attempt to exhaust the stack of whatever walks it.
 */
export const MAX_JSON_DEPTH = 64;

/** How many path segments a refusal names: enough for the field or portal row it happened under. */
const NAMED_SEGMENTS = 4;

/**
 * Refuses (400 / 1708) a parsed JSON value that nests arrays and objects deeper than {@link MAX_JSON_DEPTH},
 * naming where (under `root`, the parameter's own name, when the value is one parameter). Walks with an
 * explicit stack, never recursion, and keeps only the current path: its memory is bounded by the depth
 * limit, whatever the breadth.
 */
export function assertJsonDepth(value: unknown, name: string, root?: string): void {
  if (typeof value !== "object" || value === null || value instanceof NumberToken) return;
  interface Frame {
    container: object;
    /** Own keys of an object; undefined for an array. */
    keys: string[] | undefined;
    next: number;
    /** The key this container sits under in its parent. */
    key: string | number | undefined;
  }
  const frameOf = (container: object, key: Frame["key"]): Frame => ({ container, keys: Array.isArray(container) ? undefined : Object.keys(container), next: 0, key });
  const stack: Frame[] = [frameOf(value, undefined)];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const size = top.keys ? top.keys.length : (top.container as unknown[]).length;
    if (top.next >= size) {
      stack.pop();
      continue;
    }
    const key = top.keys ? top.keys[top.next]! : top.next;
    top.next++;
    // An own property: JSON.parse makes even "__proto__" an ordinary key.
    const child: unknown = Object.getOwnPropertyDescriptor(top.container, key)?.value;
    // A NumberToken is a number (parseJson), no level of nesting.
    if (typeof child !== "object" || child === null || child instanceof NumberToken) continue;
    if (stack.length >= MAX_JSON_DEPTH) {
      const path = [...(root === undefined ? [] : [root]), ...stack.slice(1).map((frame) => frame.key!), key];
      const shown = describePath(path.slice(0, NAMED_SEGMENTS)) + (path.length > NAMED_SEGMENTS ? "…" : "");
      throw new EmulatorError(400, "1708", `${name} nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels (at ${shown})`);
    }
    stack.push(frameOf(child, key));
  }
}

/** JSON's insignificant whitespace. */
const JSON_SPACE = new Set([" ", "\t", "\n", "\r"]);

/**
 * Refuses (400 / 1708) JSON text in which one object holds a key twice (compared after unescaping, so `"a"` and
 * `"\u0061"` are one key): `JSON.parse` keeps the last value and drops the others silently, which rule one does not
 * allow. `text` must be JSON that parsed. One pass over the text; its memory is the keys of the open objects.
 */
export function assertNoDuplicateKeys(text: string, name: string): void {
  // One entry per open container: the keys seen so far in an object, null for an array.
  const open: (Set<string> | null)[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const keys = open[open.length - 1];
      const start = i;
      i = end + 1;
      if (!keys) continue;
      let next = i;
      while (JSON_SPACE.has(text[next]!)) next++;
      if (text[next] !== ":") continue;
      const key = JSON.parse(text.slice(start, end + 1)) as string;
      if (keys.has(key)) {
        throw new EmulatorError(400, "1708", `${name}: the key ${describeInput(key)} is given twice in one object; give it once`);
      }
      keys.add(key);
      continue;
    }
    if (c === "{") open.push(new Set());
    else if (c === "[") open.push(null);
    else if (c === "}" || c === "]") open.pop();
    i++;
  }
}
