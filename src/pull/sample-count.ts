/** Records `fmgen pull` samples per layout when the server has no metadata endpoint (`--sample`). */
export const DEFAULT_SAMPLE = 100;
