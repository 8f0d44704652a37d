import { describe, expect, it } from "vitest";
import { ODataError } from "../../../src/emulator/odata/odata-error.js";
import { parseQueryOptions } from "../../../src/emulator/odata/query-options.js";

// docs/emulator.md, "Query options" (2.8): the `:` of a timestamp must be literal (`%3A` → -1002 at '%3A', OOGI).
// `$select` holds no timestamp; @proofkit/fmodata percent-encodes the `:` of the `FMFID:` names it selects with entity
// ids, and FMS takes them (its live entity-id tests), so there `%3A` decodes to `:`
// (test/peer-clients/proofkit-fmodata.test.ts).

function syntaxAt(raw: string): string {
  try {
    parseQueryOptions(raw);
  } catch (error) {
    if (error instanceof ODataError) return `${error.status} ${error.code} ${error.message}`;
    throw error;
  }
  return "parsed";
}

describe("%3A in a query (2.8)", () => {
  it("decodes %3A in $select: FMFID names", () => {
    expect(parseQueryOptions("$select=FMFID%3A8590999681,FMFID%3A12885966977").select).toEqual(parseQueryOptions("$select=FMFID:8590999681,FMFID:12885966977").select);
  });

  it("still refuses %3A in $filter, $orderby and $expand", () => {
    expect(syntaxAt("$filter=Seen%20gt%202026-09-27T00%3A00%3A00Z")).toBe("400 -1002 Error: syntax error in URL at: '%3A'");
    expect(syntaxAt("$orderby=FMFID%3A8590999681")).toBe("400 -1002 Error: syntax error in URL at: '%3A'");
    expect(syntaxAt("$expand=Notes($filter=Seen%20gt%202026-09-27T00%3A00%3A00Z)")).toBe("400 -1002 Error: syntax error in URL at: '%3A'");
  });
});
