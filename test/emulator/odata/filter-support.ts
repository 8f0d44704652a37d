// A small in-memory table for the $filter tests: real rows read through FilterRow, no mocks of the code under test.
import { compileODataFilter, type FilterRow, type FilterTable } from "../../../src/emulator/odata/filter.js";

export const ORDERS: FilterTable = {
  name: "Orders",
  fields: [
    { name: "Total", type: "Edm.Decimal" },
    { name: "Status", type: "Edm.String" },
  ],
};

export const CONTACTS: FilterTable = {
  name: "Contacts",
  fields: [
    { name: "Name", type: "Edm.String", id: "FMFID:4296032405" },
    { name: "First Name", type: "Edm.String" },
    { name: "Age", type: "Edm.Decimal", id: "FMFID:8591000000" },
    { name: "Born", type: "Edm.Date" },
    { name: "Alarm", type: "Edm.TimeOfDay" },
    { name: "Updated", type: "Edm.DateTimeOffset" },
    { name: "Photo", type: "Edm.Binary" },
    { name: "A.B", type: "Edm.String" },
    { name: "id", type: "Edm.String" },
    { name: "ID", type: "Edm.Decimal" },
  ],
  navigation: new Map([["Orders", ORDERS]]),
};

type Values = Record<string, string | number | null>;
/** A record's fields, and its related Orders records. */
interface Row {
  readonly [field: string]: string | number | null | readonly Values[] | undefined;
  readonly Name: string;
  readonly orders?: readonly Values[];
}

export const ROWS: readonly Row[] = [
  {
    Name: "Ann",
    "First Name": "Ann Lee",
    Age: 34,
    Born: "1990-05-17",
    Alarm: "07:30:00",
    Updated: "2025-10-31T11:13:13",
    Photo: "abc",
    "A.B": "x",
    id: "a1",
    ID: 1,
    ROWID: 1,
    ROWMODID: 3,
    orders: [
      { Total: 10, Status: "open" },
      { Total: 250, Status: "paid" },
    ],
  },
  {
    Name: "bob",
    "First Name": "Bob O'Hara",
    Age: 7,
    Born: "2018-01-01",
    Alarm: "25:00:00",
    Updated: "2026-01-01T00:00:00Z",
    Photo: null,
    "A.B": "y",
    id: "b2",
    ID: 2,
    ROWID: 2,
    ROWMODID: 0,
    orders: [{ Total: 5, Status: "open" }],
  },
  {
    Name: "Émile",
    "First Name": "  Émile  ",
    Age: "12.5",
    Born: "",
    Alarm: null,
    Updated: "2024-02-29T23:59:59+02:00",
    Photo: "",
    "A.B": null,
    id: null,
    ID: 3,
    ROWID: 3,
    ROWMODID: 1,
    orders: [{ Total: "0x10", Status: null }],
  },
  {
    Name: "Zoë😀",
    "First Name": "",
    Age: null,
    Born: "2000-02-29",
    Alarm: "00:00:00",
    Updated: null,
    Photo: null,
    "A.B": "",
    id: "",
    ID: 4,
    ROWID: 7,
    ROWMODID: 2,
    orders: [],
  },
];

function rowOf(values: Row | Values): FilterRow {
  return {
    value: (field) => {
      const value = values[field];
      return Array.isArray(value) ? null : ((value as string | number | null | undefined) ?? null);
    },
    related: (navigation) => (navigation === "Orders" ? ((values as Row).orders ?? []).map(rowOf) : []),
  };
}

export const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);

/** The names of the rows the filter keeps, in table order. */
export function names(filter: string): string[] {
  const keep = compileODataFilter(filter, CONTACTS, { now: () => NOW });
  return ROWS.filter((r) => keep(rowOf(r))).map((r) => r.Name);
}

/** The error a filter raises, as `code message`, or "none". */
export function errorOf(run: () => unknown): string {
  try {
    run();
    return "none";
  } catch (e) {
    const err = e as { status?: number; code?: string; message: string };
    return `${err.status} ${err.code} ${err.message}`;
  }
}

export const filterError = (filter: string) => errorOf(() => names(filter));
