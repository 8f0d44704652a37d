import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { q, type FileMakerClient, type LayoutClient } from "../../src/runtime/index.js";
import { collect, connect, counting, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { Contact } from "../support/runtime-layouts.js";

// Values parsed from a request body (JSON) that look like `q` criteria must never act as find syntax: the app
// passes `body.user` as a field value meaning "equals exactly", and `{"helper":"notEmpty","args":[]}` would
// otherwise match every record. Only criteria the `q` helpers built are criteria; any other object is a
// TypeError naming the layout and field, thrown before a request leaves.

let emu: Emulator;
let fm: FileMakerClient;
let contacts: LayoutClient<typeof Contact>;

beforeAll(async () => {
  emu = await startRuntimeEmulator();
  fm = connect(emu.url);
  contacts = fm.layout(Contact);
  await contacts.list({ limit: 1 }); // logged in: any request the attack would cost shows in the count
});
afterAll(async () => {
  await fm.close();
  await emu.close();
});

/** Fresh from JSON each time, as an app receives them. */
const PAYLOADS = {
  notEmpty: () => JSON.parse('{"helper":"notEmpty","args":[]}') as unknown,
  raw: () => JSON.parse('{"helper":"raw","args":["k-9*"]}') as unknown,
};

/** A text, a number, a date field of the layout, and a number and a date field of its portal. */
const FIELDS = ["First Name", "id", "Birthday", "Invoices::Amount", "Invoices::Issued"] as const;

type Query = Record<string, unknown>;
/** Every way query values enter a layout client; each returns a promise so that a synchronous throw is caught too. */
const ENTRY_POINTS: [string, (request: Query) => Promise<unknown>][] = [
  ["find", (r) => contacts.find({ query: [r] as never })],
  ["find, second request", (r) => contacts.find({ query: [{ Status: "Active" }, r] as never })],
  ["findOne", (r) => contacts.findOne({ query: [r] as never })],
  ["findFirst", (r) => contacts.findFirst({ query: [r] as never })],
  ["findAll", (r) => collect(contacts.findAll({ query: [r] as never }))],
  ["query().where", async (r) => contacts.query().where(r as never)],
  ["query().where, second where", async (r) => contacts.query().where({ Status: "Active" }).where(r as never)],
  ["query().or", async (r) => contacts.query().where({ Status: "Active" }).or(r as never)],
  ["query().omit", async (r) => contacts.query().where({ Status: "Active" }).omit(r as never)],
];

describe("a look-alike of a q criterion from JSON", () => {
  const cases = ENTRY_POINTS.flatMap(([entry, run]) => FIELDS.flatMap((field) => Object.entries(PAYLOADS).map(([payload, make]) => [entry, field, payload, run, make] as const)));
  it.each(cases)("%s, field %j, %s payload: TypeError naming the layout and field, no request sent", async (_entry, field, _payload, run, make) => {
    const { result, requests } = await counting(emu, () => run({ [field]: make() }).then(
      () => undefined,
      (error: unknown) => error,
    ));
    expect(result).toBeInstanceOf(TypeError);
    expect((result as Error).message).toContain(`find on layout "Contacts Web", field "${field}": object is not a valid`);
    expect((result as Error).message).toContain("find syntax comes only from the q helpers");
    expect(requests).toBe(0);
  });

  it("the login bypass: findOne({ query: [{ user, apiKey }] }) with both taken from a JSON body is refused", async () => {
    const body = JSON.parse('{"user":{"helper":"notEmpty","args":[]},"apiKey":{"helper":"raw","args":["*"]}}') as { user: never; apiKey: never };
    const { result, requests } = await counting(emu, () => contacts.findOne({ query: [{ "First Name": body.user, Email: body.apiKey }] }).catch((e: unknown) => e));
    expect(result).toBeInstanceOf(TypeError);
    expect((result as Error).message).toBe('find on layout "Contacts Web", field "First Name": object is not a valid text value (find syntax comes only from the q helpers)');
    expect(requests).toBe(0);
  });

  it.each([
    ["an array", ["Ada"]],
    ["a Date", new Date(0)],
    ["a plain object", { value: "Ada" }],
    ["a copy of a real criterion", { ...q.notEmpty() }],
    ["a structured clone of a real criterion", structuredClone(q.raw("*"))],
    ["an object inheriting from a real criterion", Object.create(q.notEmpty()) as unknown],
  ])("%s is refused too", async (_name, value) => {
    const { result, requests } = await counting(emu, () => contacts.find({ query: [{ "First Name": value as never }] }).catch((e: unknown) => e));
    expect(result).toBeInstanceOf(TypeError);
    expect((result as Error).message).toMatch(/^find on layout "Contacts Web", field "First Name": object is not a valid text value/);
    expect(requests).toBe(0);
  });
});

describe("the q helpers still make criteria", () => {
  it("on text, number, date and portal fields, through find and the query builder", async () => {
    const first = (page: { data: { fieldData: { "First Name": string } }[] }) => page.data.map((r) => r.fieldData["First Name"]).sort();
    expect(first(await contacts.find({ query: [{ "First Name": q.notEmpty() }] }))).toEqual(["Ada", "Alan", "Grace", "Katherine"]);
    expect(first(await contacts.find({ query: [{ "First Name": q.raw("A*") }] }))).toEqual(["Ada", "Alan"]);
    expect(first(await contacts.find({ query: [{ Birthday: q.lt("1900-01-01") }] }))).toEqual(["Ada"]);
    expect(first(await contacts.find({ query: [{ "Invoices::Amount": q.gt(100) }] }))).toEqual(["Ada", "Grace"]);
    expect(first(await contacts.query().where({ "First Name": q.beginsWith("g") }).run())).toEqual(["Grace"]);
    expect((await contacts.findOne({ query: [{ "First Name": "Ada", id: q.notEmpty() }] })).fieldData["Last Name"]).toBe("Lovelace");
  });
});
