// `$filter` text to a FilterNode tree (filter-ast.ts). Precedence, loosest first: `or`, `and`, `not`, comparisons
// (`eq ne gt ge lt le`, not chained), `add sub`, `mul div mod`, unary `-`, then primaries. `not` takes a whole
// comparison (`not a eq 1` is `not (a eq 1)`): FileMaker has no boolean fields, so OData's tighter `not` could
// never type-check there.
//
// Error texts follow the server (docs/emulator.md, "`$filter`: what it accepts and the choices it makes"): a token
// where an operator was expected is a "syntax error" quoted with its blanks (`' in '`, `' eq '`); a token where an
// operand was expected, or the end of the text, is a "parse failure" quoted bare (`'ID'`, `')'`).

import {
  CAST_TARGETS,
  FUNCTION_ARITY,
  isFunctionName,
  type ArithmeticOperator,
  type ComparisonOperator,
  type EdmType,
  type FieldName,
  type FilterNode,
} from "./filter-ast.js";
import { parseFailure, syntaxError } from "./odata-error.js";
import { FilterLexer, type FilterMeter, type Token } from "./filter-lexer.js";

/** The URL length cap the contract chooses (docs/emulator.md, "Hostile input"): no filter is longer. */
export const MAX_FILTER_LENGTH = 8192;
/** Nesting of parentheses, `not`, `-`, calls and operator chains; deeper is -1002, never a stack overflow. */
export const MAX_FILTER_DEPTH = 100;

export interface ParseFilterOptions {
  readonly meter?: FilterMeter;
}

const COMPARISONS: ReadonlySet<string> = new Set<ComparisonOperator>(["eq", "ne", "gt", "ge", "lt", "le"]);
const ADDITIVE: ReadonlySet<string> = new Set<ArithmeticOperator>(["add", "sub"]);
const MULTIPLICATIVE: ReadonlySet<string> = new Set<ArithmeticOperator>(["mul", "div", "mod"]);
/** Operator words: never a bare name (quote a field called `and`). */
const RESERVED: ReadonlySet<string> = new Set([
  "and",
  "or",
  "not",
  ...COMPARISONS,
  ...ADDITIVE,
  ...MULTIPLICATIVE,
  "has",
  "in",
]);

export function parseFilter(text: string, options: ParseFilterOptions = {}): FilterNode {
  if (text.length > MAX_FILTER_LENGTH) throw parseFailure(text.slice(MAX_FILTER_LENGTH, MAX_FILTER_LENGTH + 20));
  return new FilterParser(text, options.meter ?? { steps: 0 }).parseWhole();
}

/** The depth of a node in the tree, kept beside it while parsing. */
type Parsed = { readonly node: FilterNode; readonly depth: number };

class FilterParser {
  private readonly lexer: FilterLexer;
  private token: Token;
  private nesting = 0;

  constructor(
    text: string,
    private readonly meter: FilterMeter,
  ) {
    this.lexer = new FilterLexer(text, meter);
    this.token = this.lexer.next();
  }

  parseWhole(): FilterNode {
    const { node } = this.parseOr();
    if (this.token.kind !== "end") throw this.unexpectedOperator();
    return node;
  }

  private advance(): Token {
    const taken = this.token;
    this.token = this.lexer.next();
    this.meter.steps++;
    return taken;
  }

  /** An operator word; `(` may follow it straight (`not(a eq 1)`, `…)or(…`). */
  private isWord(word: string): boolean {
    return this.token.kind === "word" && this.token.text === word;
  }

  private isOperatorIn(ops: ReadonlySet<string>): boolean {
    return this.token.kind === "word" && ops.has(this.token.text);
  }

  /** A token where an operator (or the end) belongs. */
  private unexpectedOperator() {
    return syntaxError(this.token.spaced);
  }

  /** A token where an operand belongs. */
  private unexpectedOperand() {
    return parseFailure(this.token.raw);
  }

  private checkDepth(depth: number, at: Token): number {
    if (depth > MAX_FILTER_DEPTH) throw parseFailure(at.raw);
    return depth;
  }

  /** Runs a nested parse, counting it against the depth limit before it can recurse. */
  private nested<T>(at: Token, parse: () => T): T {
    if (++this.nesting > MAX_FILTER_DEPTH) throw parseFailure(at.raw);
    try {
      return parse();
    } finally {
      this.nesting--;
    }
  }

  private parseOr(): Parsed {
    return this.parseChain("or", () => this.parseAnd());
  }

  private parseAnd(): Parsed {
    return this.parseChain("and", () => this.parseNot());
  }

  private parseChain(op: "and" | "or", operand: () => Parsed): Parsed {
    const first = operand();
    if (!this.isWord(op)) return first;
    const operands = [first.node];
    let depth = first.depth;
    const opToken = this.token;
    while (this.isWord(op)) {
      this.advance();
      const next = operand();
      operands.push(next.node);
      depth = Math.max(depth, next.depth);
    }
    return { node: { kind: "logical", op, operands, at: first.node.at }, depth: this.checkDepth(depth + 1, opToken) };
  }

  private parseNot(): Parsed {
    if (!this.isWord("not")) return this.parseComparison();
    const not = this.advance();
    const operand = this.nested(not, () => this.parseNot());
    return {
      node: { kind: "not", operand: operand.node, at: not.start },
      depth: this.checkDepth(operand.depth + 1, not),
    };
  }

  private parseComparison(): Parsed {
    const left = this.parseArithmetic(ADDITIVE, () => this.parseMultiplicative());
    if (!this.isOperatorIn(COMPARISONS)) return left;
    const op = this.advance();
    const right = this.parseArithmetic(ADDITIVE, () => this.parseMultiplicative());
    const node: FilterNode = {
      kind: "compare",
      op: op.text as ComparisonOperator,
      left: left.node,
      right: right.node,
      at: left.node.at,
    };
    return { node, depth: this.checkDepth(Math.max(left.depth, right.depth) + 1, op) };
  }

  private parseMultiplicative(): Parsed {
    return this.parseArithmetic(MULTIPLICATIVE, () => this.parseUnary());
  }

  /** A left-associative chain of `ops`; its tree depth grows with its length, so it counts against the limit. */
  private parseArithmetic(ops: ReadonlySet<string>, operand: () => Parsed): Parsed {
    let left = operand();
    while (this.isOperatorIn(ops)) {
      const op = this.advance();
      const right = operand();
      const node: FilterNode = {
        kind: "arithmetic",
        op: op.text as ArithmeticOperator,
        left: left.node,
        right: right.node,
        at: left.node.at,
      };
      left = { node, depth: this.checkDepth(Math.max(left.depth, right.depth) + 1, op) };
    }
    return left;
  }

  private parseUnary(): Parsed {
    if (this.token.kind !== "-") return this.parsePrimary();
    const minus = this.advance();
    const operand = this.nested(minus, () => this.parseUnary());
    return {
      node: { kind: "negate", operand: operand.node, at: minus.start },
      depth: this.checkDepth(operand.depth + 1, minus),
    };
  }

  private parsePrimary(): Parsed {
    const token = this.token;
    switch (token.kind) {
      case "(": {
        this.advance();
        const inner = this.nested(token, () => this.parseOr());
        if (this.token.kind !== ")")
          throw this.token.kind === "end" ? this.unexpectedOperand() : this.unexpectedOperator();
        this.advance();
        return inner;
      }
      case "string":
        this.advance();
        return leaf({ kind: "literal", literal: { kind: "string", value: token.text }, at: token.start });
      case "number":
        this.advance();
        return leaf({ kind: "literal", literal: { kind: "number", value: token.number ?? token.value }, at: token.start });
      case "date":
      case "timeOfDay":
      case "dateTimeOffset":
        this.advance();
        return leaf({ kind: "literal", literal: { kind: token.kind, value: token.value }, at: token.start });
      case "quoted":
        if (token.text === "") throw this.unexpectedOperand();
        this.advance();
        return this.parsePath({ by: "name", name: token.text }, token);
      case "fmfid":
        this.advance();
        return this.parsePath({ by: "id", id: token.text }, token);
      case "word":
        return token.call && !RESERVED.has(token.text) ? this.parseCall() : this.parseWord();
      default:
        throw this.unexpectedOperand();
    }
  }

  private parseWord(): Parsed {
    const token = this.token;
    const word = token.text;
    if (word === "true" || word === "false") {
      this.advance();
      return leaf({ kind: "literal", literal: { kind: "boolean", value: word === "true" }, at: token.start });
    }
    if (word === "null") {
      this.advance();
      return leaf({ kind: "literal", literal: { kind: "null" }, at: token.start });
    }
    // `$select=ID` is a parse failure at 'ID' (2.6); taken to hold for $filter too: quote it, "ID".
    if (RESERVED.has(word) || word === "ID" || word.startsWith("$")) throw this.unexpectedOperand();
    this.advance();
    // A bare lowercase `id` makes the server fail at the operator after it (`' eq '`, RPT); "id" quoted works.
    if (word === "id") throw this.unexpectedOperator();
    return this.parsePath({ by: "name", name: word }, token);
  }

  /** A field name, maybe followed by `/field` (a related table's field through a navigation property). */
  private parsePath(first: FieldName, token: Token): Parsed {
    if (this.token.kind !== "/") return leaf({ kind: "field", field: first, at: token.start });
    if (first.by !== "name") throw syntaxError(this.token.text);
    this.advance();
    const second = this.token;
    let field: FieldName;
    if (second.kind === "quoted" && second.text !== "") field = { by: "name", name: second.text };
    else if (second.kind === "fmfid") field = { by: "id", id: second.text };
    // `Nav/any(…)`, `Nav/all(…)`: lambdas are unsupported (CL/odata-unsupported-features).
    else if (second.kind === "word" && second.call) throw syntaxError(second.text);
    else if (
      second.kind === "word" &&
      !RESERVED.has(second.text) &&
      !second.text.startsWith("$") &&
      second.text !== "ID"
    ) {
      field = { by: "name", name: second.text };
    } else throw this.unexpectedOperand();
    this.advance();
    // One level only: deeper paths are a choice not made (docs/emulator.md, "The OData API").
    if (this.token.kind === "/") throw syntaxError(this.token.text);
    return leaf({ kind: "field", field, navigation: first.name, at: token.start });
  }

  private parseCall(): Parsed {
    const nameToken = this.advance();
    const name = nameToken.text;
    // `isof`, `fractionalseconds`, `geo.*`, `matchesPattern`, any unknown name: all -1002 at the name (2.7).
    if (name !== "cast" && !isFunctionName(name)) throw syntaxError(name);
    this.advance(); // "(", guaranteed by token.call
    return this.nested(nameToken, () => {
      const args: Parsed[] = [];
      if (name === "cast") {
        args.push(this.parseOr());
        if (this.token.kind !== ",")
          throw this.token.kind === ")" || this.token.kind === "end"
            ? this.unexpectedOperand()
            : this.unexpectedOperator();
        this.advance();
        const target = this.token;
        if (target.kind !== "word" || !CAST_TARGETS.has(target.text)) throw this.unexpectedOperand();
        this.advance();
        this.closeCall();
        const operand = args[0] as Parsed;
        const node: FilterNode = {
          kind: "cast",
          operand: operand.node,
          target: target.text as EdmType,
          at: nameToken.start,
        };
        return { node, depth: this.checkDepth(operand.depth + 1, nameToken) };
      }
      const [least, most] = FUNCTION_ARITY[name as keyof typeof FUNCTION_ARITY];
      if (most === 0 && this.token.kind !== ")") throw this.unexpectedOperator();
      if (most > 0 && (this.token.kind !== ")" || least > 0)) {
        for (;;) {
          args.push(this.parseOr());
          if (this.token.kind !== ",") break;
          // Too many: the server's grammar fails at the comma that starts the extra argument.
          if (args.length === most) throw parseFailure(",");
          this.advance();
        }
      }
      // Too few: it fails at the `)` that came early.
      if (args.length < least && this.token.kind === ")") throw parseFailure(")");
      this.closeCall();
      const depth = args.reduce((d, a) => Math.max(d, a.depth), 0) + 1;
      const node: FilterNode = {
        kind: "call",
        name: name as keyof typeof FUNCTION_ARITY,
        args: args.map((a) => a.node),
        at: nameToken.start,
      };
      return { node, depth: this.checkDepth(depth, nameToken) };
    });
  }

  private closeCall(): void {
    if (this.token.kind !== ")") throw this.token.kind === "end" ? this.unexpectedOperand() : this.unexpectedOperator();
    this.advance();
  }
}

const leaf = (node: FilterNode): Parsed => ({ node, depth: 1 });
