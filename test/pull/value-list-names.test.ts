import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import type { LayoutDescriptionInput } from "../../src/layout/index.js";
import { layoutMetadata } from "../../src/runtime/metadata.js";
import { createClient, defineLayout, FileMakerError, type AnyLayoutTypes } from "../../src/runtime/index.js";
import { PULL_PASSWORD, PULL_USER, runPull, tempDir } from "./helpers.js";

// Value lists by name: a description's `valueListName` is what the emulator's layout metadata names the field's
// list (a name without values, a dynamic list, too), a sort on any layout of the file may name it, and `fmgen pull`
// keeps the name exactly as the server states it, reporting a renamed list as drift.

const CONTACTS: LayoutDescriptionInput = {
  database: "Office",
  layout: "Contacts",
  table: "Contacts",
  fields: [
    { name: "Name", type: "text" },
    { name: "Status", type: "text", valueList: ["Active", "Inactive"], valueListName: "Statuses\u00a0" },
    { name: "Region", type: "text", valueListName: "Regions" },
  ],
};
const TASKS: LayoutDescriptionInput = {
  database: "Office",
  layout: "Tasks",
  table: "Tasks",
  fields: [
    { name: "Title", type: "text" },
    { name: "Priority", type: "text", valueList: ["High", "Low"], valueListName: "Priorities" },
  ],
};

/** Tasks as a hand-written definition that names the file's value lists. */
const Tasks = defineLayout<AnyLayoutTypes & { valueLists: "Statuses\u00a0" | "Priorities" }>({ database: "Office", layout: "Tasks", fields: { Title: { type: "text" }, Priority: { type: "text" } } });

const accounts = [{ username: PULL_USER, password: PULL_PASSWORD }];
const start = (layouts: LayoutDescriptionInput[]) =>
  startEmulator({ layouts, data: { records: { Tasks: [{ Title: "Inactive", Priority: "Low" }, { Title: "zed", Priority: "High" }, { Title: "Active", Priority: "" }] } }, accounts, log: () => {} });

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start([CONTACTS, TASKS]);
});
afterAll(() => emu.close());

describe("the emulator serves a description's value list names", () => {
  it("names each field's list as described in the layout metadata, a dynamic one (no values) included", async () => {
    const fm = createClient({ server: emu.url, database: "Office", auth: { username: PULL_USER, password: PULL_PASSWORD } });
    try {
      const meta = await layoutMetadata(fm, "Contacts");
      expect(meta.fieldMetaData.map((f) => [f.name, f.valueList])).toEqual([
        ["Name", undefined],
        ["Status", "Statuses\u00a0"],
        ["Region", "Regions"],
      ]);
      expect(meta.valueLists).toEqual([
        { name: "Statuses\u00a0", type: "customList", values: [{ value: "Active", displayValue: "Active" }, { value: "Inactive", displayValue: "Inactive" }] },
        { name: "Regions", type: "customList", values: [] },
      ]);
    } finally {
      await fm.close();
    }
  });

  it("sorts by any value list of the file, on any of its layouts; an unknown name is 1708", async () => {
    const fm = createClient({ server: emu.url, database: "Office", auth: { username: PULL_USER, password: PULL_PASSWORD } });
    try {
      const tasks = fm.layout(Tasks);
      const titles = async (sort: Parameters<typeof tasks.list>[0]) => (await tasks.list(sort)).data.map((r) => r.fieldData.Title);
      // Contacts' list orders Tasks: its values first, in the list's order, then the others.
      expect(await titles({ sort: [{ fieldName: "Title", sortOrder: "Statuses\u00a0" }] })).toEqual(["Active", "Inactive", "zed"]);
      // The layout's own list, then descend on a tie.
      expect(await titles({ sort: [{ fieldName: "Priority", sortOrder: "Priorities" }, { fieldName: "Title", sortOrder: "descend" }] })).toEqual(["zed", "Inactive", "Active"]);
      const unknown = await tasks.list({ sort: [{ fieldName: "Title", sortOrder: "Statuses" as never }] }).catch((error: unknown) => error);
      expect(unknown).toBeInstanceOf(FileMakerError);
      expect(unknown).toMatchObject({ code: "1708" });
    } finally {
      await fm.close();
    }
  });

  it("refuses to start when one name is given two different lists of values, naming both fields", async () => {
    const other = { ...TASKS, fields: [{ name: "Priority", type: "text" as const, valueList: ["Active"], valueListName: "Statuses\u00a0" }] };
    await expect(start([CONTACTS, other])).rejects.toThrow(/value list "Statuses\u00a0" has other values on field "Priority" of layout "Tasks" than on field "Status" of layout "Contacts"/);
  });
});

describe("fmgen pull keeps value list names", () => {
  async function project(): Promise<string> {
    const root = await tempDir("value-list-names");
    await writeFile(join(root, "fmgen.config.json"), JSON.stringify({ database: "Office", layouts: ["layouts"], outDir: "generated" }));
    await writeFile(join(root, ".env"), `FM_USERNAME=${PULL_USER}\nFM_PASSWORD="${PULL_PASSWORD}"\n`);
    await mkdir(join(root, "layouts"));
    return root;
  }

  it("writes each field's valueListName as the server states it, --check is clean, and a renamed list is breaking drift", async () => {
    const root = await project();
    const pulled = await runPull(root, emu.url, ["Contacts", "Tasks"]);
    expect(pulled.err).toBe("");
    expect(pulled.code).toBe(0);
    const contacts = JSON.parse(await readFile(join(root, "layouts", "Contacts.layout.json"), "utf8")) as LayoutDescriptionInput;
    expect(contacts.fields).toEqual([
      { name: "Name", type: "text" },
      { name: "Status", type: "text", valueList: ["Active", "Inactive"], valueListName: "Statuses\u00a0" },
      { name: "Region", type: "text", valueListName: "Regions" },
    ]);
    expect((await runPull(root, emu.url, ["--check"])).code).toBe(0);

    const renamed = await start([{ ...CONTACTS, fields: CONTACTS.fields.map((f) => (f.name === "Status" ? { ...f, valueListName: "States" } : f)) }, TASKS]);
    try {
      const check = await runPull(root, renamed.url, ["--check"]);
      expect(check.code).toBe(1);
      expect(check.out).toContain(`~ field "Status": valueListName Statuses\u00a0 -> States  [breaking]`);
      expect((await runPull(root, renamed.url)).code).toBe(0);
      const after = JSON.parse(await readFile(join(root, "layouts", "Contacts.layout.json"), "utf8")) as LayoutDescriptionInput;
      expect(after.fields[1]).toEqual({ name: "Status", type: "text", valueList: ["Active", "Inactive"], valueListName: "States" });
    } finally {
      await renamed.close();
    }
  });
});
