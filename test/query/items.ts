import { defineLayout, type PortalRow } from "../../src/runtime/index.js";
import type { LayoutDescriptionInput } from "../../src/layout/schema.js";
import { startEmulator } from "../../src/emulator/index.js";
import { connect } from "../support/runtime-emulator.js";
import { DATABASE, PASSWORD, USERNAME } from "../support/runtime-layouts.js";

/**
 * "Items Web": one field of every kind, a repeating field, a value list, a related field outside a portal and a
 * portal, for the find tests. The definition is hand-written with a kinds map, as a generated module has it.
 * Seed rows get record ids 1, 2, 3, ... in order.
 */

export const ITEMS_LAYOUT = "Items Web";

export const itemsDescription: LayoutDescriptionInput = {
  database: DATABASE,
  layout: ITEMS_LAYOUT,
  table: "Items",
  fields: [
    { name: "id", type: "number", readOnly: true, autoEnter: "serial" },
    { name: "Name", type: "text" },
    { name: "Qty", type: "number" },
    { name: "Day", type: "date" },
    { name: "At", type: "time" },
    { name: "Stamp", type: "timestamp" },
    { name: "Tags", type: "text", repetitions: 2 },
    { name: "Status", type: "text", valueList: ["Open", "Closed"] },
    { name: "Maker::Name", type: "text" },
    { name: "File", type: "container" },
  ],
  portals: [
    {
      name: "Parts",
      table: "Parts",
      relation: { parentField: "id", childField: "ItemID" },
      fields: [
        { name: "Parts::Label", type: "text" },
        { name: "Parts::Weight", type: "number" },
        { name: "Parts::Due", type: "date" },
      ],
    },
  ],
};

export type ItemFields = {
  id: number | null;
  Name: string;
  Qty: number | null;
  Day: string | null;
  At: string | null;
  Stamp: string | null;
  Tags: [string, string];
  Status: "Open" | "Closed" | "";
  "Maker::Name": string;
  File: string | null;
};

export type ItemPartsRow = { "Parts::Label": string; "Parts::Weight": number | null; "Parts::Due": string | null };

export type ItemTypes = {
  fields: ItemFields;
  input: Partial<Omit<ItemFields, "id" | "File" | "Tags">>;
  portals: { Parts: PortalRow<ItemPartsRow>[] };
  portalInput: { Parts?: Partial<ItemPartsRow>[] };
  containers: "File";
  kinds: {
    id: "number";
    Name: "text";
    Qty: "number";
    Day: "date";
    At: "time";
    Stamp: "timestamp";
    Tags: "text";
    Status: "text";
    "Maker::Name": "text";
    File: "container";
    "Parts::Label": "text";
    "Parts::Weight": "number";
    "Parts::Due": "date";
  };
};

export const Item = defineLayout<ItemTypes>({
  database: DATABASE,
  layout: ITEMS_LAYOUT,
  fields: {
    id: { type: "number", readOnly: true },
    Name: { type: "text" },
    Qty: { type: "number" },
    Day: { type: "date" },
    At: { type: "time" },
    Stamp: { type: "timestamp" },
    Tags: { type: "text", repetitions: 2 },
    Status: { type: "text", valueList: ["Open", "Closed"] },
    "Maker::Name": { type: "text" },
    File: { type: "container" },
  },
  portals: {
    Parts: { fields: { "Parts::Label": { type: "text" }, "Parts::Weight": { type: "number" }, "Parts::Due": { type: "date" } } },
  },
});

/** Wire values of one seed row of the Items table. */
export type ItemRow = Record<string, string | number>;

/** Today for the emulator of these tests: Friday, March 15, 2024 (local time), so that `//` is fixed. */
export const TODAY = new Date(2024, 2, 15, 12, 0, 0);

/** An emulator with just the Items layout, seeded with `items` and `parts`, and a client of it. */
export async function startItems(items: readonly ItemRow[], parts: readonly ItemRow[] = []) {
  const emu = await startEmulator({
    layouts: [itemsDescription],
    data: { accounts: [{ username: USERNAME, password: PASSWORD, privileges: ["fmrest"] }], records: { Items: [...items], Parts: [...parts] } },
    port: 0,
    startTime: TODAY,
  });
  const fm = connect(emu.url);
  return {
    emu,
    fm,
    items: fm.layout(Item),
    async close() {
      await fm.close();
      await emu.close();
    },
  };
}
