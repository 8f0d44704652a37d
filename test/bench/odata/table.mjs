// The OData benchmark's table: one described table of 20 fields (every kind but container; a text key auto-entered
// as a UUID, FileMaker's usual primary key: @proofkit/fmodata writes every key quoted, `T('7')`, so a numeric key
// would be a call it cannot make: 400 8309 on FileMaker Server: docs/emulator.md, "Reads", "Keys"),
// its seeded rows (deterministic: the emulator's PRNG), and the same table as fmgen's runtime takes it (the spec a
// generated module would pass to defineTable). Used by test/bench/odata.bench.mjs only.
import { seededRandom } from "../support.mjs";

export const DATABASE = "Bench";
export const USERNAME = "web";
export const PASSWORD = "secret";

/** The fields, as a `<Name>.table.json` states them (src/table/schema.ts). */
export const FIELDS = [
  { name: "id", type: "text", autoEnter: "uuid", notNull: true },
  { name: "Code", type: "text" },
  { name: "Name", type: "text" },
  { name: "Email", type: "text" },
  { name: "Status", type: "text" },
  { name: "Category", type: "text" },
  { name: "Qty", type: "number" },
  { name: "Price", type: "number" },
  { name: "Discount", type: "number" },
  { name: "Weight", type: "number" },
  { name: "Created", type: "date" },
  { name: "Shipped", type: "date" },
  { name: "Opens", type: "time" },
  { name: "Updated", type: "timestamp" },
  { name: "Notes", type: "text" },
  { name: "City", type: "text" },
  { name: "Country", type: "text" },
  { name: "Phone", type: "text" },
  { name: "Rating", type: "number" },
  { name: "Active", type: "number" },
];

/** The table description of table `table` (what `fmgen serve --tables` reads). */
export function tableDescription(table) {
  return { database: DATABASE, table, key: "id", fields: FIELDS };
}

/** The same table as `defineTable()(spec)` takes it (what `fmgen generate` writes for the description). */
export function tableSpec(table) {
  const fields = {};
  for (const { name, ...rest } of FIELDS) fields[name] = rest;
  return { database: DATABASE, table, key: "id", fields };
}

const FIRST = ["Ada", "Alan", "Grace", "Katherine", "Bjørn", "Chloé", "José", "Yuki", "Zoë", "Priya", "Liam", "Noah"];
const LAST = ["Lovelace", "Hopper", "Turing", "Johnson", "Smith", "Müller", "García", "Nguyen", "Kim", "Patel", "Rossi", "O'Brien"];
const STATUS = ["Active", "Active", "Active", "Inactive", "Pending"];
const CATEGORY = ["Hardware", "Software", "Service", "Books", "Garden"];
const CITY = ["Berlin", "Zürich", "Lyon", "Austin", "Kyoto", "Porto", "Oslo", "Lima"];
const COUNTRY = ["DE", "CH", "FR", "US", "JP", "PT", "NO", "PE"];
const pad = (n, w = 2) => String(n).padStart(w, "0");

/**
 * `count` seed rows in the Data API's wire form (dates MM/DD/YYYY: the seed file's); the i-th row's key is `key(i)`
 * (zero-padded, so that the key order is the seed order). Qty is 0..99, so `Qty ge 50` matches about half the rows.
 */
export function seedRows(count, seed = 0x0da7a) {
  const rnd = seededRandom(seed);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const rows = new Array(count);
  for (let i = 1; i <= count; i++) {
    const c = Math.floor(rnd() * CITY.length);
    rows[i - 1] = {
      id: key(i),
      Code: `ITM-${pad(i, 6)}`,
      Name: `${pick(FIRST)} ${pick(LAST)}`,
      Email: `user${i}@example.com`,
      Status: pick(STATUS),
      Category: pick(CATEGORY),
      Qty: Math.floor(rnd() * 100),
      Price: Math.round(rnd() * 100_000) / 100,
      Discount: Math.round(rnd() * 30) / 100,
      Weight: Math.round(rnd() * 5000) / 10,
      Created: `${pad(1 + Math.floor(rnd() * 12))}/${pad(1 + Math.floor(rnd() * 28))}/${2000 + Math.floor(rnd() * 26)}`,
      Shipped: rnd() < 0.3 ? "" : `${pad(1 + Math.floor(rnd() * 12))}/${pad(1 + Math.floor(rnd() * 28))}/2026`,
      Opens: `${pad(6 + Math.floor(rnd() * 4))}:${pad(Math.floor(rnd() * 60))}:00`,
      Updated: `${pad(1 + Math.floor(rnd() * 12))}/${pad(1 + Math.floor(rnd() * 28))}/2025 ${pad(Math.floor(rnd() * 24))}:${pad(Math.floor(rnd() * 60))}:${pad(Math.floor(rnd() * 60))}`,
      Notes: rnd() < 0.5 ? "" : `Note for item ${i}: handle with care, deliver before noon.`,
      City: CITY[c],
      Country: COUNTRY[c],
      Phone: `+1 555 ${pad(Math.floor(rnd() * 10_000), 4)}`,
      Rating: 1 + Math.floor(rnd() * 5),
      Active: rnd() < 0.8 ? 1 : 0,
    };
  }
  return rows;
}

/** The key of the i-th seeded row (1-based). */
export const key = (i) => `K${pad(i, 7)}`;

/** A row to create (the TypeScript values every client sends: ISO dates, numbers), the n-th of a run. */
export function newRow(n) {
  return {
    Code: `NEW-${pad(n, 6)}`,
    Name: "Bench Create",
    Email: `new${n}@example.com`,
    Status: "Pending",
    Category: "Service",
    Qty: n % 100,
    Price: 19.99,
    Discount: 0.1,
    Weight: 2.5,
    Created: "2026-11-27",
    Opens: "08:30:00",
    Notes: "created by the benchmark",
    City: "Oslo",
    Country: "NO",
    Phone: "+1 555 0100",
    Rating: 3,
    Active: 1,
  };
}
