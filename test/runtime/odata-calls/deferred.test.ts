import { describe, expect, it } from "vitest";
import { runtimeGraph } from "../../support/runtime-graph.js";

// What most OData apps never call is loaded on its first use (deferred-calls.ts's dynamic imports), not by
// `import "@fmgen/runtime/odata"`: batches, scripts, schema changes, webhooks and containers. scripts/runtime-size.mjs
// budgets each apart.

const DEFERRED = ["batch.ts", "batch-multipart.ts", "batch-error.ts", "scripts.ts", "schema.ts", "webhooks.ts", "containers.ts"];

describe("@fmgen/runtime/odata's calls loaded on first use", () => {
  it.each([
    ["odata/index.ts", "node"],
    ["odata/fetch.ts", "neutral"],
  ] as const)("are outside the static module graph of %s, and inside the whole one", async (entry, platform) => {
    const staticGraph = await runtimeGraph(entry, platform, { staticOnly: true });
    expect(staticGraph).toEqual(expect.arrayContaining(["client.ts", "table-client.ts", "deferred-calls.ts"]));
    for (const name of DEFERRED) expect(staticGraph).not.toContain(name);
    expect(await runtimeGraph(entry, platform)).toEqual(expect.arrayContaining(DEFERRED));
  });
});
