import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type ScriptHandlers, type ScriptStepError } from "../../src/emulator/index.js";
import type { LayoutDescriptionInput, ValidateWhen } from "../../src/layout/index.js";
import { DataApi, expectError, expectOk, p, type HttpResult } from "../support/data-api-http.js";

// When `required` (509) and `unique` (504) apply (a field's `validate`: docs/emulator.md, "When required and unique
// apply"; entry-options.ts): "dataEntry" (the default) only on a user's data entry, "always" on every write. Data
// entry: a Data API create or edit with its portal rows, unless `options.entrymode` is "script". Not data entry: a
// duplicate, a script handler's records.create / records.edit, seed data. Over loopback HTTP, with each setting, and
// with none (the default).

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

const DB = "Club";
const MEMBERS = "Members";
const USER = { username: "web", password: "secret" };

/** Members (Name required, Email unique) with a Guests portal (Guests::Name required, Guests::Ticket unique), each field validating `when`. */
function members(when: ValidateWhen | undefined): LayoutDescriptionInput {
  const validate = when === undefined ? {} : { validate: when };
  return {
    database: DB,
    layout: MEMBERS,
    table: "Members",
    fields: [
      { name: "id", type: "number", readOnly: true, autoEnter: "serial" },
      { name: "Name", type: "text", required: true, ...validate },
      { name: "Email", type: "text", unique: true, ...validate },
      { name: "Note", type: "text" },
    ],
    portals: [
      {
        name: "Guests",
        table: "Guests",
        relation: { parentField: "id", childField: "MemberID" },
        fields: [
          { name: "Guests::Name", type: "text", required: true, ...validate },
          { name: "Guests::Ticket", type: "text", unique: true, ...validate },
        ],
      },
    ],
  };
}

/** Ada (member 1, ada@example.com) with her guest Bob (guest 1, ticket T1). */
function seed() {
  return {
    records: {
      Members: [{ id: 1, Name: "Ada", Email: "ada@example.com" }],
      Guests: [{ MemberID: 1, Name: "Bob", Ticket: "T1" }],
    },
  };
}

/** Each returns "ok <id or modId>" or "error <code>", so the caller sees what the step did. */
function outcome(work: () => { recordId?: string; modId: string }): string {
  try {
    const done = work();
    return `ok ${done.recordId ?? done.modId}`;
  } catch (error) {
    return `error ${(error as ScriptStepError).code}`;
  }
}

const HANDLERS: ScriptHandlers = {
  "Create Nameless": ({ records }) => outcome(() => records.create(MEMBERS, { Note: "by a script" })),
  "Create Copy Of Ada": ({ records }) => outcome(() => records.create(MEMBERS, { Name: "Twin", Email: "ADA@example.com" })),
  "Empty Name": ({ records, param }) => outcome(() => records.edit(MEMBERS, param, { Name: "" })),
  "Take Ada's Email": ({ records, param }) => outcome(() => records.edit(MEMBERS, param, { Email: "ada@example.com" })),
  "Nameless Guest": ({ records }) => outcome(() => records.create(MEMBERS, { Name: "Host" }, { portalData: { Guests: [{ "Guests::Ticket": "T1" }] } })),
};

const recordPath = (recordId: string) => p`/databases/${DB}/layouts/${MEMBERS}/records/${recordId}`;
const scriptPath = (name: string, param?: string) => `${p`/databases/${DB}/layouts/${MEMBERS}/script/${name}`}${param === undefined ? "" : `?script.param=${param}`}`;

describe.each([
  ["no validate (the default, dataEntry)", undefined],
  ['validate: "dataEntry"', "dataEntry"],
  ['validate: "always"', "always"],
] as const)("%s", (_label, when) => {
  const always = when === "always";
  let emu: Emulator;
  let api: DataApi;
  let token: string;

  beforeAll(async () => {
    emu = await startEmulator({ layouts: [members(when)], data: seed(), accounts: [USER], scripts: HANDLERS, port: 0 });
    api = new DataApi(emu.url);
    token = await api.login(USER.username, USER.password, DB);
  });
  afterAll(() => emu.close());

  const create = (json: unknown) => api.create(token, MEMBERS, json, DB);
  const edit = (recordId: string, json: unknown) => api.edit(token, MEMBERS, recordId, json, DB);
  const member = async (recordId: string) => (await api.getOk(token, MEMBERS, recordId, DB)).fieldData as Record<string, unknown>;
  const count = async () => expectOk(await api.list(token, MEMBERS, undefined, DB)).dataInfo.totalRecordCount as number;
  const script = async (name: string, param?: string) => expectOk(await api.call("GET", scriptPath(name, param), { token })).scriptResult as string;

  it("Data API create and edit are data entry: required 509 and unique 504, on the record and on portal rows", async () => {
    const before = await count();
    expectError(await create({ fieldData: { Note: "no name" } }), 400, "509");
    expectError(await create({ fieldData: { Name: "Twin", Email: "ADA@example.com" } }), 400, "504");
    expectError(await create({ fieldData: { Name: "Host" }, portalData: { Guests: [{ "Guests::Ticket": "T9" }] } }), 400, "509");
    expectError(await create({ fieldData: { Name: "Host" }, portalData: { Guests: [{ "Guests::Name": "Eve", "Guests::Ticket": "t1" }] } }), 400, "504");
    for (const options of [undefined, { entrymode: "user" }]) {
      const entry = options ? { options } : {};
      expectError(await edit("1", { fieldData: { Name: "" }, ...entry }), 400, "509");
      expectError(await edit("1", { fieldData: {}, portalData: { Guests: [{ recordId: "1", "Guests::Name": "" }] }, ...entry }), 400, "509");
    }
    const grace = await api.createOk(token, MEMBERS, { fieldData: { Name: "Grace", Email: "grace@example.com" } }, DB);
    expectError(await edit(grace.recordId, { fieldData: { Email: "Ada@Example.com" } }), 400, "504");
    expect(await count()).toBe(before + 1);
    expect(await member("1")).toMatchObject({ Name: "Ada", Email: "ada@example.com" });
  });

  it(`duplicate is not data entry: a copy of a record holding a unique Email ${always ? "is refused, 504, nothing stored" : "is stored, with the same Email"}`, async () => {
    const before = await count();
    const dup: HttpResult = await api.call("POST", recordPath("1"), { token });
    if (always) {
      expectError(dup, 400, "504");
      expect(dup.body.messages[0]!.message).toContain('"Email" must be unique');
      expect(await count()).toBe(before);
    } else {
      const copy = expectOk(dup) as { recordId: string; modId: string };
      expect(copy.modId).toBe("0");
      expect(await member(copy.recordId)).toMatchObject({ Name: "Ada", Email: "ada@example.com" });
      expect(await count()).toBe(before + 1);
      // The Data API still refuses a third holder of the value: a create is data entry.
      expectError(await create({ fieldData: { Name: "Third", Email: "ada@example.com" } }), 400, "504");
      // A data-entry edit validates the whole record (docs/emulator.md): the copy's repeated Email must change first,
      // or the edit be sent in script entry mode.
      expectError(await edit(copy.recordId, { fieldData: { Note: "copy" } }), 400, "504");
      expectOk(await edit(copy.recordId, { fieldData: { Note: "copy" }, options: { entrymode: "script" } }));
      expectOk(await edit(copy.recordId, { fieldData: { Email: "ada.copy@example.com" } }));
      expectOk(await edit("1", { fieldData: { Note: "" } }));
    }
  });

  it(`a script handler's records.create and records.edit are not data entry: an empty required field and a repeated unique value are ${always ? "refused (509, 504)" : "stored"}`, async () => {
    const before = await count();
    const nameless = await script("Create Nameless");
    const copy = await script("Create Copy Of Ada");
    const guest = await script("Nameless Guest");
    if (always) {
      expect([nameless, copy, guest]).toEqual(["error 509", "error 504", "error 509"]);
      expect(await count()).toBe(before);
    } else {
      expect([nameless, copy, guest]).toEqual([expect.stringMatching(/^ok \d+$/), expect.stringMatching(/^ok \d+$/), expect.stringMatching(/^ok \d+$/)]);
      expect(await member(nameless.slice(3))).toMatchObject({ Name: "", Note: "by a script" });
      expect(await member(copy.slice(3))).toMatchObject({ Name: "Twin", Email: "ADA@example.com" });
      expect(await count()).toBe(before + 3);
    }
    const grace = await api.createOk(token, MEMBERS, { fieldData: { Name: "Grace", Email: "grace@example.org" } }, DB);
    expect(await script("Empty Name", grace.recordId)).toBe(always ? "error 509" : "ok 1");
    expect(await script("Take Ada's Email", grace.recordId)).toBe(always ? "error 504" : "ok 2");
  });

  it(`options.entrymode "script" on create and edit skips dataEntry validation (${always ? "not these fields': they validate always" : "these fields'"}); "user" and no options check it`, async () => {
    const script = { options: { entrymode: "script" } };
    const writes = [
      await create({ fieldData: { Note: "no name" }, ...script }),
      await create({ fieldData: { Name: "Twin", Email: "ada@EXAMPLE.com" }, ...script }),
      await create({ fieldData: { Name: "Host" }, portalData: { Guests: [{ "Guests::Ticket": "T1" }] }, ...script }),
      await edit("1", { fieldData: { Note: "kept" }, portalData: { Guests: [{ recordId: "1", "Guests::Name": "" }] }, ...script }),
    ];
    if (always) {
      expect(writes.map((res) => res.code)).toEqual(["509", "504", "509", "509"]);
      expect(await member("1")).toMatchObject({ Name: "Ada", Note: "" });
    } else {
      for (const res of writes) expectOk(res);
      expect(await member("1")).toMatchObject({ Name: "Ada", Note: "kept" });
      const made = (writes[0]!.body.response as { recordId: string }).recordId;
      expect(await member(made)).toMatchObject({ Name: "", Note: "no name" });
    }
    // The same writes as a user's data entry are refused either way.
    for (const options of [undefined, {}, { entrymode: "user" }]) {
      const entry = options ? { options } : {};
      expectError(await create({ fieldData: { Note: "no name" }, ...entry }), 400, "509");
      expectError(await create({ fieldData: { Name: "Twin", Email: "ada@example.com" }, ...entry }), 400, "504");
    }
  });
});

describe("seed data is not data entry (as an import)", () => {
  const bad = {
    records: {
      Members: [
        { id: 1, Name: "Ada", Email: "ada@example.com" },
        { id: 2, Name: "", Email: "ADA@example.com" },
      ],
    },
  };

  it("loads records with an empty required field or a repeated unique value when the fields validate during data entry", async () => {
    for (const when of [undefined, "dataEntry"] as const) {
      const emu = await startEmulator({ layouts: [members(when)], data: bad, accounts: [USER], port: 0 });
      try {
        const api = new DataApi(emu.url);
        const token = await api.login(USER.username, USER.password, DB);
        expect((await api.getOk(token, MEMBERS, "2", DB)).fieldData).toMatchObject({ Name: "", Email: "ADA@example.com" });
      } finally {
        await emu.close();
      }
    }
  });

  it('refuses them, naming the record, when the fields validate "always"', async () => {
    await expect(startEmulator({ layouts: [members("always")], data: bad, accounts: [USER], port: 0 })).rejects.toThrowError(/records\.Members\[1\]: .*"Name" requires a value/);
    const oneBad = { records: { Members: [bad.records.Members[0]!, { ...bad.records.Members[1]!, Name: "Twin" }] } };
    await expect(startEmulator({ layouts: [members("always")], data: oneBad, accounts: [USER], port: 0 })).rejects.toThrowError(/records\.Members\[1\]: .*"Email" must be unique/);
  });
});

describe("a field shown on several layouts", () => {
  it('validates "always" when any of its descriptions says so', async () => {
    const lite: LayoutDescriptionInput = { database: DB, layout: "Members Lite", table: "Members", fields: [{ name: "Email", type: "text", unique: true, validate: "always" }] };
    const emu = await startEmulator({ layouts: [members(undefined), lite], data: seed(), accounts: [USER], port: 0 });
    try {
      const api = new DataApi(emu.url);
      const token = await api.login(USER.username, USER.password, DB);
      // Through the layout that does not say it too.
      expectError(await api.call("POST", recordPath("1"), { token }), 400, "504");
      // Name's validation stays as Members says: during data entry only.
      expectOk(await api.create(token, MEMBERS, { fieldData: { Note: "x" }, options: { entrymode: "script" } }, DB));
    } finally {
      await emu.close();
    }
  });
});
