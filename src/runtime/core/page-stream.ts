/**
 * The one paging loop of the runtime's streams, the Data API's (listAll, findAll, portalRows) and OData's (all):
 * pages read by position until a short page, the found count of the page's own answer, or the limit, each checked to
 * move through the found set. Nothing here knows either API.
 *
 * The check stops a server (or proxy) that does not move through its found set (one that ignores the position) from
 * being read forever: a page must hold no more rows than asked for, must end within the found count of its own
 * answer, and must not repeat the page before it (the same rows and found count). Records added or deleted while a
 * stream runs shift its pages, but a server never answers rows past the found set it counts in the same answer, and
 * records added that repeat a page grow the count.
 */

/** One page, as a stream's reader answers it. */
export interface StreamPage {
  /** Its rows, not yet decoded. */
  rows: readonly unknown[];
  /** What tells the page from another of other rows: its rows' ids, or their text. */
  identity: string;
  /** The found count of the page's own answer, when it has one. */
  found?: number | undefined;
}

/** Where a stream starts and stops, and how it reads. */
export interface StreamPlan {
  /** The call, as its errors name it: `listAll on layout "Contacts Web"`. */
  what: string;
  /** Rows before the first one read (0: from the start). */
  skip: number;
  /** Rows a request asks for. */
  pageSize: number;
  /** Rows in all, at most (Infinity: every one). */
  limit: number;
  /** Pages requested ahead of the one handed out, never past the found count (0: one page in memory). */
  ahead: number;
}

/**
 * The rows of `read`'s pages, decoded as they are handed out. `read(skip, count)` reads `count` rows after the first
 * `skip`. With `ahead`, the next pages are requested before this side decodes and consumes, so that the server is
 * never idle meanwhile: at most `ahead + 1` pages are held at once, whatever the number of rows.
 */
export async function* pageStream<T>(plan: StreamPlan, read: (skip: number, count: number) => Promise<StreamPage>, decode: (raw: unknown) => T): AsyncGenerator<T> {
  let next = plan.skip;
  let remaining = plan.limit;
  type InFlight = Promise<{ page: StreamPage; skip: number; count: number }>;
  const request = (): InFlight => {
    const [skip, count] = [next, Math.min(plan.pageSize, remaining)];
    const page = read(skip, count).then((answer) => ({ page: answer, skip, count }));
    // Marked handled now: a page read ahead may fail while the caller is busy with an earlier one (or has stopped);
    // its error belongs where the stream reaches it, never to process-wide unhandled rejection.
    page.catch(() => undefined);
    next += count;
    remaining -= count;
    return page;
  };
  // Unknown until the first page: then only one request is out.
  let known = 0;
  let before: string | undefined;
  const ahead: InFlight[] = [request()];
  while (ahead.length) {
    const { page, skip, count } = await ahead.shift()!;
    const { rows, found = Infinity } = page;
    const seen = `${page.identity} of ${found}`;
    const wrong =
      rows.length > count ? `, more than the ${count} asked for` : skip + rows.length > found ? ` of a found set of ${found}` : rows.length && seen === before ? ", the same as the page before" : "";
    if (wrong) throw new Error(`${plan.what}: the server is not paging: ${rows.length} rows from row ${skip + 1}${wrong}`);
    before = seen;
    if (page.found !== undefined) known = page.found;
    // A short page is the last, and so is one that reaches the found count of its own answer.
    const last = rows.length < count || skip + rows.length >= found;
    while (!last && remaining > 0 && (!ahead.length || (ahead.length < plan.ahead && next < known))) ahead.push(request());
    // Decoding row by row lets the requests above go out first (they leave after a microtask), and a row that does
    // not decode stops the stream where it is.
    for (const row of rows) yield decode(row);
    if (last) return;
  }
}
