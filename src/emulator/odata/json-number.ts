// A number written into a JSON body as its decimal text, digit for digit. JSON.stringify writes a JavaScript number
// through a double: 12345678901234567891 loses its last digits, and 2e308 (a sum of finite values) is Infinity,
// written null. A JsonNumber is a number token of its text instead (Node 20 has no JSON.rawJSON).

import { randomUUID } from "node:crypto";

/** What a JsonNumber stringifies to, replaced by its text afterwards; no value a client sends can hold it. */
const MARK = `\u0000number-${randomUUID()}:`;
const MARKED = new RegExp(`"${JSON.stringify(MARK).slice(1, -1).replace(/\\/g, "\\\\")}([-+.0-9eE]+)"`, "g");

export class JsonNumber {
  /** `text`: a JSON number (`-1.5`, `2e+308`). */
  constructor(readonly text: string) {}

  toJSON(): string {
    return MARK + this.text;
  }
}

/** JSON.stringify, with each JsonNumber written as its number token. */
export function stringifyJson(value: unknown): string {
  const json = JSON.stringify(value);
  return json.includes(MARK.slice(1)) ? json.replace(MARKED, "$1") : json;
}
