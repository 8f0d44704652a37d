import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../support/conformance-emulator.js";
import { CONTACTS, DataApi, DB, expectError, expectOk, p } from "../support/data-api-http.js";
import { SplitRequest, untilRequestsSeen, uploadBody } from "../support/split-request.js";
import { containerFileName } from "../support/container-download.js";

// docs/emulator.md, "When required and unique apply": writes are atomic per request. A request whose body is still
// arriving has read nothing yet; the record is looked up, its modId checked and the write made in one step once the
// whole body is in. Each test holds one request's body in flight over a real loopback socket while other requests
// complete, then sends the rest.

let emu: Emulator;
let api: DataApi;
let token: string;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator());
  token = await api.login();
});
afterAll(async () => {
  await emu.close();
});

const V = "/fmi/data/vLatest";
const recordPath = (recordId: string) => V + p`/databases/${DB}/layouts/${CONTACTS}/records/${recordId}`;
const uploadPath = (recordId: string) => `${recordPath(recordId)}/containers/Photo/1`;
const PHOTO = Uint8Array.from({ length: 64 * 1024 }, (_, i) => i % 251);

async function newContact(name: string): Promise<string> {
  return (await api.createOk(token, CONTACTS, { fieldData: { "First Name": name } })).recordId;
}

/** Opens a request, sends its headers and the first `sent` bytes of `body`, and waits until the emulator holds it. */
async function holdRequest(method: string, path: string, contentType: string, body: Buffer, sent: number): Promise<{ request: SplitRequest; rest: Buffer }> {
  const seen = emu.stats().requests;
  const request = await SplitRequest.open(emu.url, method, path, { Authorization: `Bearer ${token}`, "Content-Type": contentType }, body.byteLength);
  await request.write(body.subarray(0, sent));
  await untilRequestsSeen(() => emu.stats(), seen + 1);
  return { request, rest: body.subarray(sent) };
}

function holdUpload(recordId: string): Promise<{ request: SplitRequest; rest: Buffer }> {
  const { body, contentType } = uploadBody(PHOTO, "late.png", "image/png");
  return holdRequest("POST", uploadPath(recordId), contentType, body, Math.floor(body.byteLength / 2));
}

function holdEdit(recordId: string, json: unknown, sent: number): Promise<{ request: SplitRequest; rest: Buffer }> {
  return holdRequest("PATCH", recordPath(recordId), "application/json", Buffer.from(JSON.stringify(json)), sent);
}

describe("an upload whose body is in flight while an edit completes", () => {
  it("keeps both changes, and the two answers carry distinct, increasing modIds", async () => {
    const recordId = await newContact("Racer");
    const upload = await holdUpload(recordId);

    const edited = expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { "Last Name": "Edited meanwhile" } }));
    const uploadAnswer = await upload.request.finish(upload.rest);

    expect({ status: uploadAnswer.status, code: uploadAnswer.code }, uploadAnswer.text).toEqual({ status: 200, code: "0" });
    expect(edited.modId).toBe("1");
    expect(uploadAnswer.body.response.modId).toBe("2");
    const record = await api.getOk(token, CONTACTS, recordId);
    expect(record.fieldData["Last Name"]).toBe("Edited meanwhile");
    expect(await containerFileName(record.fieldData.Photo)).toBe("late.png");
    expect(record.modId).toBe("2");
  });
});

describe("a record deleted while a write's body is in flight", () => {
  it("the late upload answers 404 / 101 and the record stays deleted", async () => {
    const recordId = await newContact("Doomed upload");
    const upload = await holdUpload(recordId);

    expectOk(await api.delete(token, CONTACTS, recordId));
    const answer = await upload.request.finish(upload.rest);

    expect({ status: answer.status, code: answer.code }, answer.text).toEqual({ status: 404, code: "101" });
    expectError(await api.get(token, CONTACTS, recordId), 404, "101");
  });

  it("the late edit answers 404 / 101 and the record stays deleted", async () => {
    const recordId = await newContact("Doomed edit");
    const edit = await holdEdit(recordId, { fieldData: { "Last Name": "Too late" } }, 5);

    expectOk(await api.delete(token, CONTACTS, recordId));
    const answer = await edit.request.finish(edit.rest);

    expect({ status: answer.status, code: answer.code }, answer.text).toEqual({ status: 404, code: "101" });
    expectError(await api.get(token, CONTACTS, recordId), 404, "101");
  });
});

describe("two edits with the same modId, their bodies arriving in interleaved segments", () => {
  it("exactly one applies; the other answers 400 / 306", async () => {
    const recordId = await newContact("Contested");
    const a = await holdEdit(recordId, { fieldData: { "Last Name": "First writer" }, modId: "0" }, 4);
    const b = await holdEdit(recordId, { fieldData: { "Last Name": "Second writer" }, modId: "0" }, 4);
    // A second segment each, then the rests, A first.
    await a.request.write(a.rest.subarray(0, 10));
    await b.request.write(b.rest.subarray(0, 10));
    const answerA = await a.request.finish(a.rest.subarray(10));
    const answerB = await b.request.finish(b.rest.subarray(10));

    expect({ status: answerA.status, code: answerA.code }, answerA.text).toEqual({ status: 200, code: "0" });
    expect({ status: answerB.status, code: answerB.code }, answerB.text).toEqual({ status: 400, code: "306" });
    const record = await api.getOk(token, CONTACTS, recordId);
    expect(record.fieldData["Last Name"]).toBe("First writer");
    expect(record.modId).toBe("1");
  });
});
