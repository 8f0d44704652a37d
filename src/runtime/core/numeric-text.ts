/**
 * Whether `text` is a number as older servers write one in a number field: an optional sign, digits with at
 * most one decimal point (at least one digit in all), then an optional exponent (`e` or `E`, an optional
 * sign, digits). No whitespace: callers that allow it around the number trim first.
 *
 * A scanner rather than `/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i`: the regex backtracks quadratically on a
 * long run of digits that ends badly (60 kB took seconds); this reads each character once.
 */
export function isNumericText(text: string): boolean {
  let at = 0;
  const sign = () => {
    const c = text.charCodeAt(at);
    if (c === 43 || c === 45) at++;
  };
  /** Skips a run of ASCII digits; how many. */
  const digits = () => {
    const from = at;
    for (let c = text.charCodeAt(at); c >= 48 && c <= 57; c = text.charCodeAt(++at));
    return at - from;
  };
  sign();
  let count = digits();
  if (text.charCodeAt(at) === 46) {
    at++;
    count += digits();
  }
  if (count === 0) return false;
  // `| 32` lower-cases an ASCII letter: "E" and "e" alike.
  if ((text.charCodeAt(at) | 32) === 101) {
    at++;
    sign();
    if (digits() === 0) return false;
  }
  return at === text.length;
}
