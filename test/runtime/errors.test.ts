import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DatabaseMissingError,
  defineLayout,
  FieldMissingError,
  FileMakerError,
  InvalidCredentialsError,
  InvalidTokenError,
  LayoutMissingError,
  ModIdMismatchError,
  RecordMissingError,
  ValidationError,
  type FileMakerClient,
} from "../../src/runtime/index.js";
import { collect, connect, counting, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import {
  Contact,
  DATABASE,
  Invoice,
  MisdescribedContact,
  MisdescribedInvoice,
  MissingLayout,
  USERNAME,
  type ContactTypes,
} from "../support/runtime-layouts.js";

// Each error code (docs/emulator.md, "Codes beyond the wire contract"; docs/troubleshooting.md) surfaces as its typed
// error class with code, httpStatus and the call, never the password or the token. Run against the contract's statuses
// and against a server answering 500 for every FileMaker error, as real servers do: the runtime must decide on
// messages[0].code alone.

const WRONG_PASSWORD = "Wr0ng-Pa55word-XYZZY";
const STALE_TOKEN = "stale-T0KEN-6f1c2a9e4b7d";
const CONTACTS_PATH = "/databases/Contacts/layouts/Contacts%20Web";
const INVOICES_PATH = "/databases/Contacts/layouts/Invoices%20Web";

type ErrorClass = abstract new (...args: never[]) => FileMakerError;

describe.each([false, true])("serverStatuses: %s", (serverStatuses) => {
  let emu: Emulator;
  let fm: FileMakerClient;
  const others: FileMakerClient[] = [];

  /** The status the server answers for a contract status: 400 and 404 become 500 on a real server. */
  const status = (contract: number) => (serverStatuses && (contract === 400 || contract === 404) ? 500 : contract);

  const secrets = [WRONG_PASSWORD, STALE_TOKEN, Buffer.from(`${USERNAME}:${WRONG_PASSWORD}`).toString("base64")];

  async function expectFileMakerError(
    promise: Promise<unknown>,
    expected: { class: ErrorClass; code: string; httpStatus: number; method: string; path: string },
  ): Promise<FileMakerError> {
    const error = await promise.then(
      () => {
        throw new Error(`expected a ${expected.class.name} (code ${expected.code}), but the call succeeded`);
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(expected.class);
    expect(error).toBeInstanceOf(FileMakerError);
    const e = error as FileMakerError;
    expect(e.name).toBe(expected.class.name);
    expect({ code: e.code, httpStatus: e.httpStatus, call: e.call }).toEqual({
      code: expected.code,
      httpStatus: expected.httpStatus,
      call: { method: expected.method, path: expected.path },
    });
    expect(e.message).toContain(expected.code);
    const shown = `${e.message}\n${JSON.stringify(e.call)}\n${e.serverMessage}\n${String(e)}`;
    for (const secret of secrets) expect(shown).not.toContain(secret);
    return e;
  }

  function other(overrides: Parameters<typeof connect>[1]): FileMakerClient {
    const client = connect(emu.url, overrides);
    others.push(client);
    return client;
  }

  beforeAll(async () => {
    emu = await startRuntimeEmulator({ serverStatuses });
    fm = connect(emu.url);
  });

  afterAll(async () => {
    await fm.close();
    // Clients of the missing database cannot log out (100): their close() rejects after closing the pool.
    await Promise.allSettled(others.map((client) => client.close()));
    await emu.close();
  });

  it("100: a database that is not hosted -> DatabaseMissingError (at login)", async () => {
    const nowhere = other({ database: "Nowhere" });
    const layout = defineLayout<ContactTypes>({ ...Contact, database: "Nowhere" });
    await expectFileMakerError(nowhere.layout(layout).list(), {
      class: DatabaseMissingError,
      code: "100",
      httpStatus: status(404),
      method: "POST",
      path: "/databases/Nowhere/sessions",
    });
  });

  it("100: a database that is not hosted -> DatabaseMissingError (token-bearing call), token not shown", async () => {
    const nowhere = other({ database: "Nowhere", auth: { token: STALE_TOKEN } });
    const layout = defineLayout<ContactTypes>({ ...Contact, database: "Nowhere" });
    await expectFileMakerError(nowhere.layout(layout).list(), {
      class: DatabaseMissingError,
      code: "100",
      httpStatus: status(404),
      method: "GET",
      path: "/databases/Nowhere/layouts/Contacts%20Web/records",
    });
  });

  it("100: a logout that fails shows {token} in its path, never the token", async () => {
    const nowhere = other({ database: "Nowhere", auth: { token: STALE_TOKEN } });
    await expectFileMakerError(nowhere.logout(), {
      class: DatabaseMissingError,
      code: "100",
      httpStatus: status(404),
      method: "DELETE",
      path: "/databases/Nowhere/sessions/{token}",
    });
  });

  it("101: get, edit and delete of a missing record -> RecordMissingError", async () => {
    const contacts = fm.layout(Contact);
    const path = `${CONTACTS_PATH}/records/999999`;
    await expectFileMakerError(contacts.get(999999), { class: RecordMissingError, code: "101", httpStatus: status(404), method: "GET", path });
    await expectFileMakerError(contacts.edit("999999", { fieldData: { "Last Name": "X" } }), {
      class: RecordMissingError,
      code: "101",
      httpStatus: status(404),
      method: "PATCH",
      path,
    });
    await expectFileMakerError(contacts.delete(999999), { class: RecordMissingError, code: "101", httpStatus: status(404), method: "DELETE", path });
  });

  it("101: an upload to a missing record -> RecordMissingError", async () => {
    await expectFileMakerError(fm.layout(Contact).upload(999999, "Photo", new Uint8Array([1, 2, 3])), {
      class: RecordMissingError,
      code: "101",
      httpStatus: status(404),
      method: "POST",
      path: `${CONTACTS_PATH}/records/999999/containers/Photo/1`,
    });
  });

  it("102: create, find and sort naming a field the layout lacks -> FieldMissingError; nothing is created", async () => {
    const contacts = fm.layout(MisdescribedContact);
    const before = emu.stats().records[DATABASE]!["Contacts"];
    await expectFileMakerError(contacts.create({ fieldData: { "First Name": "Ghostly", Ghost: "boo" } }), {
      class: FieldMissingError,
      code: "102",
      httpStatus: status(400),
      method: "POST",
      path: `${CONTACTS_PATH}/records`,
    });
    expect(emu.stats().records[DATABASE]!["Contacts"]).toBe(before);
    await expectFileMakerError(contacts.find({ query: [{ Ghost: "boo" }] }), {
      class: FieldMissingError,
      code: "102",
      httpStatus: status(400),
      method: "POST",
      path: `${CONTACTS_PATH}/_find`,
    });
    await expectFileMakerError(contacts.list({ sort: [{ fieldName: "Ghost", sortOrder: "ascend" }] }), {
      class: FieldMissingError,
      code: "102",
      httpStatus: status(400),
      method: "GET",
      path: `${CONTACTS_PATH}/records?_sort=${encodeURIComponent(JSON.stringify([{ fieldName: "Ghost", sortOrder: "ascend" }]))}`,
    });
  });

  it("102: an upload into a container the layout lacks -> FieldMissingError (HTTP 404 in the contract)", async () => {
    await expectFileMakerError(fm.layout(MisdescribedContact).upload(1, "Ghost Photo", new Blob(["x"])), {
      class: FieldMissingError,
      code: "102",
      httpStatus: status(404),
      method: "POST",
      path: `${CONTACTS_PATH}/records/1/containers/Ghost%20Photo/1`,
    });
  });

  it("105: a layout the database lacks -> LayoutMissingError", async () => {
    const missing = fm.layout(MissingLayout);
    await expectFileMakerError(missing.list(), {
      class: LayoutMissingError,
      code: "105",
      httpStatus: status(404),
      method: "GET",
      path: "/databases/Contacts/layouts/No%20Such%20Layout/records",
    });
    await expectFileMakerError(missing.get(1), {
      class: LayoutMissingError,
      code: "105",
      httpStatus: status(404),
      method: "GET",
      path: "/databases/Contacts/layouts/No%20Such%20Layout/records/1",
    });
  });

  it("212: a wrong password -> InvalidCredentialsError (401 either way), password never shown", async () => {
    const wrong = other({ auth: { username: USERNAME, password: WRONG_PASSWORD } });
    const { logins } = await counting(emu, async () => {
      await expectFileMakerError(wrong.layout(Contact).get(1), {
        class: InvalidCredentialsError,
        code: "212",
        httpStatus: 401,
        method: "POST",
        path: "/databases/Contacts/sessions",
      });
    });
    expect(logins).toBe(0);
  });

  it("212: an unknown account -> InvalidCredentialsError", async () => {
    const unknown = other({ auth: { username: "nobody-at-all", password: WRONG_PASSWORD } });
    await expectFileMakerError(unknown.layout(Contact).list(), {
      class: InvalidCredentialsError,
      code: "212",
      httpStatus: 401,
      method: "POST",
      path: "/databases/Contacts/sessions",
    });
  });

  it("306: an edit carrying a stale modId -> ModIdMismatchError; the record is unchanged", async () => {
    const contacts = fm.layout(Contact);
    const { recordId, modId } = await contacts.create({ fieldData: { "First Name": "Locky", Email: `locky-${serverStatuses}@example.com` } });
    const { modId: next } = await contacts.edit(recordId, { fieldData: { "Last Name": "One" }, modId });
    expect(Number(next)).toBe(Number(modId) + 1);
    await expectFileMakerError(contacts.edit(recordId, { fieldData: { "Last Name": "Two" }, modId }), {
      class: ModIdMismatchError,
      code: "306",
      httpStatus: status(400),
      method: "PATCH",
      path: `${CONTACTS_PATH}/records/${recordId}`,
    });
    const record = await contacts.get(recordId);
    expect(record.fieldData["Last Name"]).toBe("One");
    expect(record.modId).toBe(next);
  });

  it("401: a find matching nothing resolves to an empty page, not an error", async () => {
    const contacts = fm.layout(Contact);
    const { result, requests } = await counting(emu, () => contacts.find({ query: [{ "First Name": "Nobody At All" }] }));
    expect(result.data).toEqual([]);
    expect(result.dataInfo.foundCount).toBe(0);
    expect(result.dataInfo.returnedCount).toBe(0);
    // Answered once: a 401 is an answer, not a fault to retry.
    expect(requests).toBe(1);
    expect(await contacts.findFirst({ query: [{ "First Name": "Nobody At All" }] })).toBeUndefined();
    expect(await collect(contacts.findAll({ query: [{ "First Name": "Nobody At All" }] }))).toEqual([]);
  });

  it("504: a duplicate in a unique field -> ValidationError", async () => {
    const before = emu.stats().records[DATABASE]!["Contacts"];
    await expectFileMakerError(fm.layout(Contact).create({ fieldData: { "First Name": "Copy", Email: "ada@example.com" } }), {
      class: ValidationError,
      code: "504",
      httpStatus: status(400),
      method: "POST",
      path: `${CONTACTS_PATH}/records`,
    });
    expect(emu.stats().records[DATABASE]!["Contacts"]).toBe(before);
  });

  it("509: a required field left empty -> ValidationError", async () => {
    const contacts = fm.layout(Contact);
    await expectFileMakerError(contacts.create({ fieldData: { "Last Name": "Nameless" } }), {
      class: ValidationError,
      code: "509",
      httpStatus: status(400),
      method: "POST",
      path: `${CONTACTS_PATH}/records`,
    });
    await expectFileMakerError(contacts.edit(1, { fieldData: { "First Name": null } }), {
      class: ValidationError,
      code: "509",
      httpStatus: status(400),
      method: "PATCH",
      path: `${CONTACTS_PATH}/records/1`,
    });
    expect((await contacts.get(1)).fieldData["First Name"]).toBe("Ada");
  });

  it("500: a value the server cannot read as a date -> ValidationError", async () => {
    await expectFileMakerError(fm.layout(MisdescribedContact).create({ fieldData: { "First Name": "Datey", Birthday: "13/45/2020" } }), {
      class: ValidationError,
      code: "500",
      httpStatus: status(400),
      method: "POST",
      path: `${CONTACTS_PATH}/records`,
    });
  });

  it("501: a value the server cannot read as a time -> ValidationError", async () => {
    await expectFileMakerError(fm.layout(MisdescribedContact).edit(1, { fieldData: { "Wake Up": "25:99:00" } }), {
      class: ValidationError,
      code: "501",
      httpStatus: status(400),
      method: "PATCH",
      path: `${CONTACTS_PATH}/records/1`,
    });
  });

  it("502: a value the server cannot read as a number -> ValidationError", async () => {
    await expectFileMakerError(fm.layout(MisdescribedInvoice).create({ fieldData: { ContactID: 1, Amount: "twelve" } }), {
      class: ValidationError,
      code: "502",
      httpStatus: status(400),
      method: "POST",
      path: `${INVOICES_PATH}/records`,
    });
    // The well-described layout still works on the same client.
    expect((await fm.layout(Invoice).get(1)).fieldData.Amount).toBe(120.5);
  });

  it("a code without a class of its own (400: an empty find) is a plain FileMakerError", async () => {
    const error = await expectFileMakerError(fm.layout(Contact).find({ query: [] }), {
      class: FileMakerError,
      code: "400",
      httpStatus: status(400),
      method: "POST",
      path: `${CONTACTS_PATH}/_find`,
    });
    expect(error.constructor).toBe(FileMakerError);
  });

  it("952: a client with only a stale token -> InvalidTokenError (401 either way), token never shown", async () => {
    const stale = other({ auth: { token: STALE_TOKEN } });
    const { logins } = await counting(emu, async () => {
      await expectFileMakerError(stale.layout(Contact).list({ limit: 2 }), {
        class: InvalidTokenError,
        code: "952",
        httpStatus: 401,
        method: "GET",
        path: `${CONTACTS_PATH}/records?_limit=2`,
      });
    });
    expect(logins).toBe(0);
    // Logging out a token the server no longer knows is not an error.
    await expect(stale.logout()).resolves.toBeUndefined();
  });
});
