import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, FileMakerError, ProtocolError, RecordMissingError } from "../../src/runtime/index.js";
import { envelope, startFakeServer, type FakeAnswer, type FakeServer, type SeenRequest } from "../support/runtime-emulator.js";
import { Contact, DATABASE } from "../support/runtime-layouts.js";
import { failure } from "./redaction-support.js";

// Redaction takes secrets out where they can appear (a server's or proxy's echo: its message, a body that is not an
// envelope), never out of what the client decides on (an error's code, HTTP status, call, script results) nor out of
// the words and numbers around a short secret: a password "0" must leave code "401" alone, a password "Invoices" a
// layout named Invoices.

const USER = "leaktest";
const LONG = "Long-Secret-Password-7f3e9b2c";
// Short ones (a digit, a letter, a layout's name, regular expression metacharacters), and a long one.
const PASSWORDS = ["0", "1", "Invoices", "a", "a.b*", "(x)|[y]$^\\", LONG];

// A layout named as one of the passwords.
const Invoices = { ...Contact, layout: "Invoices" } as typeof Contact;
const PATH = `/databases/${DATABASE}/layouts/Invoices/records`;

let onLogin: ((req: SeenRequest) => FakeAnswer) | undefined;
let onData: () => FakeAnswer = () => ({ status: 200, body: envelope({}) });

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer(() => onData(), { loginAnswer: (req) => onLogin?.(req) });
});
afterAll(() => fake.close());

const client = (password: string) => createClient({ server: fake.url, database: DATABASE, auth: { username: USER, password }, retry: { retries: 0 } });

describe.each(PASSWORDS)("with the password %j", (password) => {
  it("a FileMaker error keeps its code, HTTP status, call, message and script results exact", async () => {
    onData = () => ({ status: 500, body: envelope({ scriptError: "0", scriptResult: "1" }, "101", "Record is missing") });
    const fm = client(password);
    try {
      const error = (await failure(() => fm.layout(Invoices).get(1))) as FileMakerError;
      expect(error).toBeInstanceOf(RecordMissingError);
      expect(error.code).toBe("101");
      expect(error.httpStatus).toBe(500);
      expect(error.call).toEqual({ method: "GET", path: `${PATH}/1` });
      expect(error.serverMessage).toBe("Record is missing");
      expect(error.message).toBe(`GET ${PATH}/1: FileMaker error 101: Record is missing (HTTP 500)`);
      expect(error.stack).toContain(error.message);
      expect(error.scripts).toEqual({ after: { result: "1", error: "0" } });
    } finally {
      await fm.close();
    }
  });

  it("a find that matches nothing (code 401) is an empty page", async () => {
    onData = () => ({ status: 500, body: envelope({}, "401", "No records match the request") });
    const fm = client(password);
    try {
      const page = await fm.layout(Invoices).find({ query: [{ "First Name": "nobody" }] });
      expect(page.data).toEqual([]);
    } finally {
      await fm.close();
    }
  });

  it("a server message echoing the password loses it where it stands alone, never inside another word or number", async () => {
    const echo = (p: string) => `login ${p} refused; x${p}y ${p}9 9${p} 401 "${p}" (${USER}:${p})`;
    onData = () => ({ status: 500, body: envelope({}, "212", echo(password)) });
    const fm = client(password);
    try {
      const error = (await failure(() => fm.layout(Invoices).get(1))) as FileMakerError;
      expect(error.code).toBe("212");
      const expected =
        password === LONG
          ? echo("[redacted]").replace(`(${USER}:[redacted])`, "([redacted])")
          : `login [redacted] refused; x${password}y ${password}9 9${password} 401 "[redacted]" ([redacted])`;
      expect(error.serverMessage).toBe(expected);
      expect(error.message).toBe(`GET ${PATH}/1: FileMaker error 212: ${expected} (HTTP 500)`);
    } finally {
      await fm.close();
    }
  });

  it("a proxy's page echoing the login (Basic credentials, decoded) shows neither the credentials nor the pair", async () => {
    const pair = `${USER}:${password}`;
    onLogin = (req) => {
      const basic = /^Basic (.*)$/.exec(req.headers.authorization ?? "")![1]!;
      return { status: 502, contentType: "text/html", body: `<pre>authorization: Basic ${basic} (${Buffer.from(basic, "base64").toString()})\n${req.method} ${req.url}</pre>` };
    };
    const fm = client(password);
    try {
      const error = (await failure(() => fm.layout(Invoices).get(1))) as ProtocolError;
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.httpStatus).toBe(502);
      expect(error.call).toEqual({ method: "POST", path: `/databases/${DATABASE}/sessions` });
      expect(error.bodyStart).toBe(`<pre>authorization: Basic [redacted] ([redacted])\nPOST /fmi/data/vLatest/databases/${DATABASE}/sessions</pre>`);
      const everything = [inspect(error, { depth: 10, showHidden: true }), error.stack, JSON.stringify(error)].join("\n");
      expect(everything).not.toContain(pair);
      expect(everything).not.toContain(Buffer.from(pair).toString("base64"));
    } finally {
      onLogin = undefined;
      await fm.close();
    }
  });
});
