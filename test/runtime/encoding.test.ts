import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DecodeError, type FileMakerClient, type LayoutClient } from "../../src/runtime/index.js";
import { connect, counting, envelope, exampleSeed, startFakeServer, startRuntimeEmulator, type Emulator, type FakeServer } from "../support/runtime-emulator.js";
import { Contact, DATABASE, Invoice, Types } from "../support/runtime-layouts.js";

// Values that do not encode are refused before any request, naming layout and field; wire values that do
// not decode are a DecodeError naming layout, field, record id and the raw value, never coerced; the
// `validate` option decides whether values outside a value list are reported.

let emu: Emulator;
let fm: FileMakerClient;
let types: LayoutClient<typeof Types>;
let contacts: LayoutClient<typeof Contact>;

beforeAll(async () => {
  const seed = exampleSeed();
  // A value outside the Status value list: FileMaker stores it unless told to validate.
  seed.records["Contacts"]!.push({ "First Name": "Outlier", Email: "outlier@example.com", Status: "Pending" });
  emu = await startRuntimeEmulator({ data: seed });
  fm = connect(emu.url);
  types = fm.layout(Types);
  contacts = fm.layout(Contact);
});

afterAll(async () => {
  await fm.close();
  await emu.close();
});

describe("values that do not encode: TypeError naming layout and field, before any request", () => {
  async function expectRefused(run: () => Promise<unknown>, field: string, layout = "Types Web"): Promise<void> {
    // A fresh client: not even a login may happen.
    const { requests, logins } = await counting(emu, async () => {
      const error = await run().then(
        () => {
          throw new Error("expected a TypeError, but the call succeeded");
        },
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toContain(layout);
      expect((error as Error).message).toContain(field);
    });
    expect(requests).toBe(0);
    expect(logins).toBe(0);
  }

  it("a number into a text field", async () => {
    // @ts-expect-error a number is not text
    await expectRefused(() => types.create({ fieldData: { Text: 42 } }), "Text");
  });

  it('"2024-13-01" into a date field', async () => {
    await expectRefused(() => types.create({ fieldData: { Date: "2024-13-01" } }), "Date");
  });

  it("a string into a number field", async () => {
    // @ts-expect-error a string is not a number
    await expectRefused(() => types.create({ fieldData: { Number: "12" } }), "Number");
  });

  it("a Date object into a date field", async () => {
    // @ts-expect-error dates are ISO strings
    await expectRefused(() => types.create({ fieldData: { Date: new Date() } }), "Date");
  });

  it("a boolean into a text field, by edit", async () => {
    // @ts-expect-error a boolean is not text
    await expectRefused(() => types.edit(1, { fieldData: { Text: true } }), "Text");
  });

  it("a wrong type in one repetition names the repetition", async () => {
    // @ts-expect-error the second repetition is not text
    await expectRefused(() => types.create({ fieldData: { Tags: ["ok", 2] } }), "Tags(2)");
  });

  it("a scalar into a repeating field", async () => {
    // @ts-expect-error repetitions are a tuple
    await expectRefused(() => types.create({ fieldData: { Tags: "one" } }), "Tags");
  });

  it("a field the layout lacks", async () => {
    // @ts-expect-error not on the layout
    await expectRefused(() => types.create({ fieldData: { Nope: "x" } }), "Nope");
  });

  it("a read-only field", async () => {
    // @ts-expect-error read-only
    await expectRefused(() => types.create({ fieldData: { Serial: 5 } }), "Serial");
  });

  it("a container field (write through upload only)", async () => {
    // @ts-expect-error containers are not writable
    await expectRefused(() => types.edit(1, { fieldData: { File: ["http://x/y"] } }), "File");
  });

  it("a wrong type in a portal row names the portal and the field", async () => {
    await expectRefused(
      // @ts-expect-error the amount is a number
      () => contacts.create({ fieldData: { "First Name": "P" }, portalData: { Invoices: [{ "Invoices::Amount": "lots" }] } }),
      "Invoices::Amount",
      "Contacts Web",
    );
  });

  it("a portal the layout lacks", async () => {
    // @ts-expect-error no such portal
    await expectRefused(() => contacts.create({ fieldData: { "First Name": "P" }, portalData: { Orders: [] } }), "Orders", "Contacts Web");
  });

  it("a wrong type in a find criterion", async () => {
    // @ts-expect-error a number field is found by a number
    await expectRefused(() => types.find({ query: [{ Number: "many" }] }), "Number");
    await expectRefused(() => types.find({ query: [{ Date: "2024-02-30" }] }), "Date");
  });
});

describe("wire values that do not decode: DecodeError with layout, field, record id and raw value", () => {
  let server: FakeServer;
  let fakeFm: FileMakerClient;
  let answer = "";

  beforeAll(async () => {
    server = await startFakeServer(() => ({ status: 200, body: answer }));
    fakeFm = connect(server.url);
  });

  afterAll(async () => {
    await fakeFm.close();
    await server.close();
  });

  function contactRecord(fieldData: Record<string, unknown>, portalRows: Record<string, unknown>[] = []) {
    return {
      recordId: "7",
      modId: "2",
      fieldData: {
        id: 7,
        "First Name": "Ada",
        "Last Name": "",
        Email: "",
        Status: "Active",
        Birthday: "12/10/1815",
        "Wake Up": "",
        Created: "",
        Modified: "",
        Photo: "",
        Phone: "",
        "Phone(2)": "",
        "Phone(3)": "",
        "Company::Name": "",
        ...fieldData,
      },
      portalData: { Invoices: portalRows },
    };
  }

  function serve(...records: object[]): void {
    answer = envelope({
      dataInfo: { database: DATABASE, layout: "Contacts Web", table: "Contacts", totalRecordCount: 9, foundCount: records.length, returnedCount: records.length },
      data: records,
    });
  }

  async function decodeError(run: () => Promise<unknown>): Promise<DecodeError> {
    const error = await run().then(
      () => {
        throw new Error("expected a DecodeError, but the call succeeded");
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DecodeError);
    return error as DecodeError;
  }

  it("a well-formed record decodes (the fake server's baseline)", async () => {
    serve(contactRecord({}));
    const record = await fakeFm.layout(Contact).get(7);
    expect(record.fieldData.Birthday).toBe("1815-12-10");
  });

  it('"13/45/2020" in a date field', async () => {
    serve(contactRecord({ Birthday: "13/45/2020" }));
    const error = await decodeError(() => fakeFm.layout(Contact).get(7));
    expect(error).toMatchObject({ layout: "Contacts Web", field: "Birthday", recordId: "7", raw: "13/45/2020", expected: "date" });
    expect(error.message).toContain("Contacts Web");
    expect(error.message).toContain("Birthday");
    expect(error.message).toContain("7");
    expect(error.message).toContain("13/45/2020");
  });

  it.each([
    ["Birthday", "2020-01-01", "date"],
    ["Birthday", "02/30/2024", "date"],
    ["Wake Up", "25:00:00", "time"],
    ["Wake Up", "noon", "time"],
    ["Created", "12/10/1815", "timestamp"],
    ["Created", "02/29/2023 10:00:00", "timestamp"],
    ["id", "seven", "number"],
    ["id", "", null],
  ] as const)("%s = %j is %s", async (field, raw, expected) => {
    serve(contactRecord({ [field]: raw }));
    if (expected === null) {
      // "" is the empty value of every type, not a decode failure.
      expect((await fakeFm.layout(Contact).get(7)).fieldData[field]).toBeNull();
      return;
    }
    const error = await decodeError(() => fakeFm.layout(Contact).get(7));
    expect(error).toMatchObject({ layout: "Contacts Web", field, recordId: "7", raw, expected });
  });

  it("a bad value in one repetition names that repetition", async () => {
    serve(contactRecord({ "Phone(2)": { nested: true } }));
    const error = await decodeError(() => fakeFm.layout(Contact).get(7));
    expect(error).toMatchObject({ layout: "Contacts Web", recordId: "7", raw: { nested: true } });
    expect(error.field).toContain("Phone(2)");
  });

  it("a bad value in a portal row names the portal field", async () => {
    serve(contactRecord({}, [{ recordId: "3", modId: "0", "Invoices::Amount": "much", "Invoices::Issued": "01/01/2024" }]));
    const error = await decodeError(() => fakeFm.layout(Contact).get(7));
    expect(error.layout).toBe("Contacts Web");
    expect(error.field).toContain("Invoices::Amount");
    expect(error.raw).toBe("much");
    expect(error.recordId).toContain("7");
  });

  it("with validate: false a malformed date is still a DecodeError, never coerced", async () => {
    const loose = connect(server.url, { validate: false });
    try {
      serve(contactRecord({ Birthday: "13/45/2020" }));
      const error = await decodeError(() => loose.layout(Contact).get(7));
      expect(error).toMatchObject({ field: "Birthday", raw: "13/45/2020" });
    } finally {
      await loose.close();
    }
  });

  it("list and find report the record id of the bad record among good ones", async () => {
    const good = contactRecord({});
    const bad = { ...contactRecord({ Birthday: "99/99/9999" }), recordId: "8" };
    serve(good, bad);
    expect((await decodeError(() => fakeFm.layout(Contact).list())).recordId).toBe("8");
    expect((await decodeError(() => fakeFm.layout(Contact).find({ query: [{ Status: "Active" }] }))).recordId).toBe("8");
  });

  it("numeric strings from older servers decode as numbers", async () => {
    answer = envelope({
      dataInfo: { database: DATABASE, layout: "Invoices Web", table: "Invoices", totalRecordCount: 1, foundCount: 1, returnedCount: 1 },
      data: [{ recordId: "1", modId: "0", fieldData: { id: "1", ContactID: "1", Amount: "120.50", Issued: "01/15/2024", Paid: "Yes" }, portalData: {} }],
    });
    const invoice = await fakeFm.layout(Invoice).get(1);
    expect(invoice.fieldData).toEqual({ id: 1, ContactID: 1, Amount: 120.5, Issued: "2024-01-15", Paid: "Yes" });
  });
});

describe("validate: value lists", () => {
  it("with validate: true (the default) a value outside the value list is reported as a DecodeError", async () => {
    const outlier = await contacts.find({ query: [{ Email: "outlier@example.com" }] }).catch((e: unknown) => e);
    expect(outlier).toBeInstanceOf(DecodeError);
    expect(outlier).toMatchObject({ layout: "Contacts Web", field: "Status", recordId: "5", raw: "Pending" });
    await expect(contacts.get(5)).rejects.toBeInstanceOf(DecodeError);
  });

  it("with validate: false it is not: the raw value comes through", async () => {
    const loose = connect(emu.url, { validate: false });
    try {
      const record = await loose.layout(Contact).get(5);
      expect(record.fieldData.Status).toBe("Pending");
      // The other records read the same either way.
      expect((await loose.layout(Contact).get(1)).fieldData).toEqual((await contacts.get(1)).fieldData);
    } finally {
      await loose.close();
    }
  });

  it("a definition's own validate: false (fmgen.config.json options.validateRecords) wins over the client's", async () => {
    const unchecked = { ...Contact, validate: false };
    expect((await contacts.get(1)).fieldData.Status).toBe("Active");
    const record = await fm.layout(unchecked).get(5);
    expect(record.fieldData.Status).toBe("Pending");
  });

  it("records whose values are in the list read fine with validate: true", async () => {
    const page = await contacts.find({ query: [{ Status: "Active" }] });
    expect(page.data).toHaveLength(3);
  });
});
