// Exported by both entries (public-api.ts), so that an app can tell this error by `instanceof`; batch.ts throws it.

/**
 * The batch was applied, but a created row could not be read back (a later step of the same batch deleted it, or
 * another client did since): `results` holds every step's result, `null` for each such row.
 */
export class BatchReadBackError extends Error {
  /** Every step's result, in order, `null` for each created row that could not be read back. */
  declare readonly results: unknown[];
  constructor(message: string, results: unknown[]) {
    super(message);
    this.results = results;
  }
}
// A string, on the prototype: an app's bundler renames classes.
BatchReadBackError.prototype.name = "BatchReadBackError";
