import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { TableMissingError, type ODataClient } from "../../../src/runtime/odata/index.js";
import { auth, DB, startOffice } from "../../emulator/odata/serve-support.js";
import { officeClient } from "./support.js";

// od.schema against the emulator: each DDL call, seen in $metadata (JSON CSDL) afterwards.

let emu: RunningEmulator;
let od: ODataClient<"Office">;
beforeAll(async () => {
  emu = await startOffice(1);
  od = officeClient(emu.url);
});
afterAll(async () => {
  await od?.close();
  await emu?.close();
});
const schema = () => od.schema;

/** The entity type `T_` of $metadata's JSON form, or undefined. */
async function entityType(table: string): Promise<Record<string, any> | undefined> {
  const res = await fetch(`${emu.url}/fmi/odata/v4/${DB}/$metadata`, { headers: { Authorization: auth(), Accept: "application/json" } });
  const csdl = (await res.json()) as Record<string, Record<string, any>>;
  return csdl[DB]?.[`${table}_`];
}

describe("od.schema", () => {
  it("creates a table, adds fields, indexes one, and deletes them, each seen in $metadata", async () => {
    const created = await schema().createTable("Things", [
      { name: "Thing ID", type: "int", primary: true },
      { name: "Title", type: "varchar(100)", nullable: false },
    ]);
    expect(created).toEqual({ tableName: "Things", fields: [{ name: "Thing ID", type: "int", primary: true }, { name: "Title", type: "varchar(100)", nullable: false }] });
    expect(Object.keys((await entityType("Things")) ?? {})).toEqual(expect.arrayContaining(["Thing ID", "Title"]));

    expect(await schema().addFields("Things", [{ name: "Due", type: "date" }])).toEqual({ tableName: "Things", fields: [{ name: "Due", type: "date" }] });
    expect((await entityType("Things"))?.Due?.$Type).toBe("Edm.Date");

    await schema().createIndex("Things", "Title");
    expect((await entityType("Things"))?.Title?.["@Index"]).toBe(true);
    await schema().deleteIndex("Things", "Title");
    expect((await entityType("Things"))?.Title?.["@Index"]).toBeUndefined();

    await schema().deleteField("Things", "Due");
    expect((await entityType("Things"))?.Due).toBeUndefined();
    await schema().deleteTable("Things");
    expect(await entityType("Things")).toBeUndefined();
  });

  it("reports the fields addFields could not add beside those it added", async () => {
    const change = await schema().addFields("Notes", [{ name: "Extra", type: "varchar(10)" }, { name: "Text", type: "varchar(10)" }]);
    expect(change.fields).toEqual([{ name: "Extra", type: "varchar(10)" }]);
    expect(change.failedFields).toMatchObject([{ name: "Text", error: { code: "-1" } }]);
  });

  it("refuses bad names and field lists before sending; the server's refusals are errors", async () => {
    await expect(schema().createTable("", [{ name: "a", type: "int" }])).rejects.toThrow(/schema.createTable: the table name must be a non-empty string/);
    await expect(schema().createTable("T", [])).rejects.toThrow(/fields must be a non-empty array/);
    await expect(schema().addFields("Notes", [{ name: "a" } as never])).rejects.toThrow(/fields\[0\] needs a name and a type/);
    await expect(schema().addFields("Notes", [{ name: "a", type: "int", size: 3 } as never])).rejects.toThrow(/fields\[0\] has "size"/);
    await expect(schema().deleteField("Notes", 3 as never)).rejects.toThrow(/field name must be a non-empty string/);
    // The server decodes the path once before splitting it: "Notes/Text" would name the field Text of Notes.
    await expect(schema().deleteTable("Notes/Text")).rejects.toThrow(/"Notes\/Text" cannot be sent in a URL path/);
    await expect(schema().deleteField("Notes", "..")).rejects.toThrow(/cannot be sent in a URL path/);
    expect((await entityType("Notes"))?.Text).toBeDefined();
    await expect(schema().deleteTable("Nope")).rejects.toBeInstanceOf(TableMissingError);
  });
});
