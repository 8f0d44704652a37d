/**
 * Compares two strings by Unicode code points (negative, 0, positive). JavaScript's `<` compares UTF-16
 * code units, which puts astral characters (surrogate pairs) before U+E000..U+FFFF; this does not.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/**
 * Re-orders code units so that unit order equals code point order at the first differing unit:
 * surrogates (U+D800..U+DFFF) move above U+FFFF-range BMP characters (U+E000..U+FFFF).
 */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit <= 0xdfff ? unit + 0x2000 : unit - 0x800;
}
