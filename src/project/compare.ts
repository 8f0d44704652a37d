/** Locale-independent ordering by UTF-16 code units, so that output never depends on the machine. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
