import { ISO_DATES, parseIsoDayRange, parseIsoTimestamp, type DateFormat } from "../date-format.js";
import { compareNumbers, storedNumberOf, type StoredNumber } from "../exact-number.js";
import { daysFromCivil, daysInMonth, parseWireDate, parseWireTime, parseWireTimestamp } from "../stored-value.js";

/**
 * Operands of number, date, time and timestamp criteria, read into the stored representation.
 *
 * Every operand is an interval of stored values, so that whole-period criteria compose with the
 * operators: `2024` on a date field is all of 2024, so `<2024` is before Jan 1, `<=2024` up to Dec 31,
 * `2023...2024` both years. A single value is the interval [v, v]. A number's bounds are stored numbers (a double, or
 * an ExactNumber of up to 400 digits), compared exactly with the stored values (exact-number.ts).
 */
export interface Interval {
  readonly lo: StoredNumber;
  readonly hi: StoredNumber;
  /** True when `hi` itself is outside the interval (whole days on a timestamp field). */
  readonly hiOpen: boolean;
}

export type TypedFieldType = "number" | "date" | "time" | "timestamp";

const SECONDS_PER_DAY = 86_400;

const point = (value: StoredNumber): Interval => ({ lo: value, hi: value, hiOpen: false });

/**
 * Reads an operand (escapes already resolved), or null when it is not a value of the type. Dates and timestamps
 * are read in the call's `dateformats` (docs/emulator.md, "5. `dateformats`"); `YYYY` and `//` read the same in both.
 */
export function parseTypedOperand(type: TypedFieldType, text: string, today: number, format: DateFormat = 0): Interval | null {
  switch (type) {
    case "number": {
      // Read as a number field reads a string (`+5`, `.5`, `1e3`), exactly: a 400-digit operand finds its own value.
      const n = storedNumberOf(text.trim(), "lenient");
      return typeof n === "string" ? null : point(n);
    }
    case "date": {
      const days = parseDayRange(text, today, format);
      return days === null ? null : { lo: days.first, hi: days.last, hiOpen: false };
    }
    case "time": {
      const seconds = parseWireTime(text);
      return seconds === null ? null : point(seconds);
    }
    case "timestamp": {
      const seconds = format === ISO_DATES ? parseIsoTimestamp(text, "space or T") : parseWireTimestamp(text);
      if (seconds !== null) return point(seconds);
      // A date alone (or a month, a year, `//`) on a timestamp field means every moment of it.
      const days = parseDayRange(text, today, format);
      return days === null
        ? null
        : { lo: days.first * SECONDS_PER_DAY, hi: (days.last + 1) * SECONDS_PER_DAY, hiOpen: true };
    }
  }
}

/**
 * `MM/DD/YYYY`, `M/YYYY` (the month), `YYYY` (the year) or `//` (today), as inclusive day numbers; with ISO
 * dates `YYYY-MM-DD` and `YYYY-MM` instead of the first two.
 */
function parseDayRange(text: string, today: number, format: DateFormat): { first: number; last: number } | null {
  const t = text.trim();
  if (t === "//") return { first: today, last: today };
  if (format === ISO_DATES) {
    const iso = parseIsoDayRange(t);
    if (iso !== null) return iso;
    if (!/^\d{4}$/.test(t)) return null;
  }
  const day = parseWireDate(t);
  if (day !== null) return { first: day, last: day };
  const month = /^(\d{1,2})\/(\d{4})$/.exec(t);
  if (month) {
    const [m, y] = [Number(month[1]), Number(month[2])];
    const first = daysFromCivil(y, m, 1);
    return first === null ? null : { first, last: first + daysInMonth(y, m) - 1 };
  }
  const year = /^(\d{4})$/.exec(t);
  if (year) {
    const y = Number(year[1]);
    const first = daysFromCivil(y, 1, 1);
    const last = daysFromCivil(y, 12, 31);
    return first === null || last === null ? null : { first, last };
  }
  return null;
}

/** value >= lo */
export function atOrAfterStart(value: StoredNumber, interval: Interval): boolean {
  return compareNumbers(value, interval.lo) >= 0;
}

/** value <= hi (value < hi when hi is open) */
export function atOrBeforeEnd(value: StoredNumber, interval: Interval): boolean {
  const order = compareNumbers(value, interval.hi);
  return interval.hiOpen ? order < 0 : order <= 0;
}

/** value < lo */
export function beforeStart(value: StoredNumber, interval: Interval): boolean {
  return compareNumbers(value, interval.lo) < 0;
}
