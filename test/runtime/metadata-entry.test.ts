import { describe, expect, it } from "vitest";
import { runtimeGraph } from "../support/runtime-graph.js";

// Layout metadata and undecoded records are for tools (fmgen pull), not apps: they live in the
// `@fmgen/runtime/metadata` entry, outside the module graph of what an app imports.

describe("@fmgen/runtime/metadata", () => {
  it.each([
    ["index.ts", "node"],
    ["fetch.ts", "neutral"],
  ] as const)("is not in the module graph of the app's entry %s", async (entry, platform) => {
    const inputs = await runtimeGraph(entry, platform);
    expect(inputs).toContain("client.ts");
    expect(inputs).toContain("layout-list.ts");
    expect(inputs).not.toContain("metadata.ts");
  });

  it("is its own entry, reaching the client's session", async () => {
    const inputs = await runtimeGraph("metadata.ts", "neutral");
    expect(inputs).toEqual(expect.arrayContaining(["metadata.ts", "client-sessions.ts"]));
    expect(inputs).not.toContain("client.ts");
  });
});
