/**
 * Fault injection: a seeded, deterministic stream of failures the emulator plays on `/fmi/data/...`
 * requests, so clients can be tested against a server and a network that misbehave.
 *
 * A fault never corrupts stored data. Each fault either happens before the request is handled (nothing is
 * applied, the client sees a failure) or after it (the write is applied, then the answer is lost or mangled:
 * the "may have reached the server" case). `before` kinds: revoke, restart, capacity812, capacity956, and
 * drop / html / truncate when the draw says so; `after`: drop / html / truncate otherwise.
 */
import { parseJson } from "../../project/index.js";

/** Every fault kind: what `FaultOptions.kinds` defaults to, and the keys of `stats().faults`. */
export const FAULT_KINDS = ["drop", "html", "truncate", "revoke", "restart", "capacity812", "capacity956"] as const;
/**
 * A kind of injected fault: a dropped connection, an HTML 5xx page, a truncated body, a revoked token, a restart
 * (every session dropped), or FileMaker's capacity errors 812 and 956.
 */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Which faults the emulator injects, how often and in what order: seeded, so a failing test replays. */
export interface FaultOptions {
  /** PRNG seed (default 1): the same seed and the same request order give the same faults. */
  seed?: number;
  /** Chance that a request meets a fault, split evenly over `kinds` (default 0). */
  rate?: number;
  /** The kinds `rate` is spread over (default all of them). */
  kinds?: readonly FaultKind[];
  /** Per-kind chance, replacing that kind's share of `rate`. */
  rates?: Partial<Record<FaultKind, number>>;
  /** Added latency: every request waits a uniform random time in [min, max] ms (default none). */
  latencyMs?: { min: number; max: number };
  /** Chance that drop / html / truncate happen after the request was applied (default 0.5). */
  afterRate?: number;
}

export type FaultPhase = "before" | "after";

export interface PlannedFault {
  kind: FaultKind;
  phase: FaultPhase;
}

/** mulberry32: a tiny, good-enough seeded PRNG (uniform in [0, 1)). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALWAYS_BEFORE = new Set<FaultKind>(["revoke", "restart", "capacity812", "capacity956"]);

/** Decides, per request, whether and how it fails; counts what it played. */
export class FaultPlan {
  private readonly random: () => number;
  private readonly table: [FaultKind, number][];
  readonly counts: Record<FaultKind, number> = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  private readonly latency: { min: number; max: number } | undefined;
  private readonly afterRate: number;

  /** The options the plan was made from (the inspector shows them). */
  readonly options: FaultOptions;

  constructor(options: FaultOptions) {
    this.options = options;
    this.random = seededRandom(options.seed ?? 1);
    const kinds = options.kinds ?? FAULT_KINDS;
    for (const k of kinds) if (!FAULT_KINDS.includes(k)) throw new Error(`unknown fault kind "${k}" (one of ${FAULT_KINDS.join(", ")})`);
    const share = (options.rate ?? 0) / Math.max(1, kinds.length);
    this.table = FAULT_KINDS.map((k): [FaultKind, number] => [k, options.rates?.[k] ?? (kinds.includes(k) ? share : 0)]);
    for (const [k, p] of this.table) if (!(p >= 0 && p <= 1)) throw new Error(`fault rate of ${k} must be in [0, 1], got ${p}`);
    const total = this.table.reduce((sum, [, p]) => sum + p, 0);
    if (total > 1) throw new Error(`fault rates add up to ${total}, more than 1`);
    if (options.latencyMs && !(options.latencyMs.min >= 0 && options.latencyMs.max >= options.latencyMs.min)) {
      throw new Error("latencyMs needs 0 <= min <= max");
    }
    this.latency = options.latencyMs;
    this.afterRate = options.afterRate ?? 0.5;
  }

  /** The next request's added latency in ms (0 without `latencyMs`). */
  nextLatency(): number {
    if (!this.latency) return 0;
    return this.latency.min + this.random() * (this.latency.max - this.latency.min);
  }

  /** The next request's fault, if any. Always draws the same number of values per request. */
  next(): PlannedFault | undefined {
    const roll = this.random();
    const phaseRoll = this.random();
    let acc = 0;
    for (const [kind, p] of this.table) {
      acc += p;
      if (roll < acc) {
        this.counts[kind]++;
        return { kind, phase: ALWAYS_BEFORE.has(kind) || phaseRoll >= this.afterRate ? "before" : "after" };
      }
    }
    return undefined;
  }
}

/** Parses `--faults` JSON (the same shape as the `faults` option). */
export function parseFaultOptions(text: string): FaultOptions {
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch (error) {
    throw new Error(`--faults must be JSON like {"rate":0.2,"seed":1}: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("--faults must be a JSON object");
  const options = parsed as FaultOptions;
  new FaultPlan(options); // validates
  return options;
}
