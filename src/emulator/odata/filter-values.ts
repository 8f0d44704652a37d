// Dates, times and timestamps as the filter language holds them: numbers, so that every comparison is a number
// comparison. A date is the epoch milliseconds of its UTC midnight, a time of day the milliseconds since midnight
// (FileMaker times may exceed 24 hours), a timestamp epoch milliseconds (the server's zone is UTC: a choice of 2.7).
// Parsing is by hand, character by character: no RegExp, so no backtracking on hostile text.

const digitAt = (s: string, i: number): number => {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57 ? c - 48 : -1;
};

/** The number held by `count` digits at `i`, or -1. */
function digits(s: string, i: number, count: number): number {
  let n = 0;
  for (let k = 0; k < count; k++) {
    const d = digitAt(s, i + k);
    if (d < 0) return -1;
    n = n * 10 + d;
  }
  return n;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Epoch ms of a UTC midnight; `Date.UTC` would read years below 100 as 19xx. */
function utcMidnight(year: number, month: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getTime();
}

/** The length of a `YYYY-MM-DD` at `i` and its value, or undefined. */
export function scanDate(s: string, i: number): { end: number; ms: number } | undefined {
  const year = digits(s, i, 4);
  if (year < 1 || s[i + 4] !== "-") return undefined;
  const month = digits(s, i + 5, 2);
  if (month < 1 || month > 12 || s[i + 7] !== "-") return undefined;
  const day = digits(s, i + 8, 2);
  const last = month === 2 && isLeap(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  if (day < 1 || day > last) return undefined;
  return { end: i + 10, ms: utcMidnight(year, month, day) };
}

/**
 * `hh:mm[:ss[.fff…]]` at `i`: its end and milliseconds since midnight. `maxHour` is 23 inside a timestamp; a time
 * field's value may run past a day.
 */
export function scanTime(s: string, i: number, maxHour: number): { end: number; ms: number } | undefined {
  let end = i;
  while (digitAt(s, end) >= 0 && end - i < 6) end++;
  const hourDigits = end - i;
  if (hourDigits < 2 || s[end] !== ":") return undefined;
  const hour = digits(s, i, hourDigits);
  const minute = digits(s, end + 1, 2);
  if (hour > maxHour || minute < 0 || minute > 59) return undefined;
  end += 3;
  let ms = (hour * 60 + minute) * 60_000;
  if (s[end] === ":") {
    const second = digits(s, end + 1, 2);
    if (second < 0 || second > 59) return undefined;
    ms += second * 1000;
    end += 3;
    if (s[end] === "." && digitAt(s, end + 1) >= 0) {
      end++;
      let scale = 100;
      while (digitAt(s, end) >= 0) {
        ms += digitAt(s, end) * scale;
        scale /= 10;
        end++;
      }
      ms = Math.round(ms);
    }
  }
  return { end, ms };
}

/** `Z` or `±hh:mm` at `i`: its end and the offset in ms, or undefined. */
export function scanZone(s: string, i: number): { end: number; offsetMs: number } | undefined {
  if (s[i] === "Z" || s[i] === "z") return { end: i + 1, offsetMs: 0 };
  if (s[i] !== "+" && s[i] !== "-") return undefined;
  const hour = digits(s, i + 1, 2);
  const minute = digits(s, i + 4, 2);
  if (hour < 0 || hour > 14 || s[i + 3] !== ":" || minute < 0 || minute > 59) return undefined;
  return { end: i + 6, offsetMs: (s[i] === "-" ? -1 : 1) * (hour * 60 + minute) * 60_000 };
}

/** A whole string as a date (`YYYY-MM-DD`), or null. */
export function parseDate(s: string): number | null {
  const d = scanDate(s, 0);
  return d && d.end === s.length ? d.ms : null;
}

/** A whole string as a time of day (`hh:mm[:ss[.f]]`), or null. */
export function parseTimeOfDay(s: string): number | null {
  const t = scanTime(s, 0, Number.MAX_SAFE_INTEGER);
  return t && t.end === s.length ? t.ms : null;
}

/**
 * A whole string as a timestamp: `YYYY-MM-DDThh:mm[:ss[.f]]` (a space may stand for the T), with `Z`, `±hh:mm` or no
 * zone (then it is the server's local time, UTC), or null.
 */
export function parseTimestamp(s: string): number | null {
  const d = scanDate(s, 0);
  if (!d || (s[d.end] !== "T" && s[d.end] !== " ")) return null;
  const t = scanTime(s, d.end + 1, 23);
  if (!t) return null;
  if (t.end === s.length) return d.ms + t.ms;
  const z = scanZone(s, t.end);
  return z && z.end === s.length ? d.ms + t.ms - z.offsetMs : null;
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

export const formatDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export function formatTimeOfDay(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${pad(Math.floor(seconds / 3600), 2)}:${pad(Math.floor(seconds / 60) % 60, 2)}:${pad(seconds % 60, 2)}`;
}

/** As the OData API writes timestamps: no milliseconds, `Z` (docs/emulator.md, "Reads"). */
export const formatTimestamp = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

const DAY_MS = 86_400_000;
export const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
export const timeOfDay = (ms: number) => ms - dayStart(ms);
