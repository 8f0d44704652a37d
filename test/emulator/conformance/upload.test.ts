import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { downloadContainer } from "../../support/container-download.js";
import {
  CONTACTS,
  DataApi,
  DB,
  expectError,
  expectOk,
  p,
  type FileToUpload,
  type HttpResult,
} from "../../support/data-api-http.js";

// Uploads to a container field (docs/emulator.md, "Container bytes"). Every test uploads into a record it creates
// itself.

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

/** Every byte value, so any text decoding on the way would show. */
const PNG: FileToUpload = {
  bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 256 }, (_, i) => i)]),
  type: "image/png",
  filename: "ada.png",
};
const PDF: FileToUpload = { bytes: new TextEncoder().encode("%PDF-1.4 tiny"), type: "application/pdf", filename: "cv.pdf" };

async function newContact(): Promise<string> {
  return (await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Uploader" } })).recordId;
}

async function fetchBytes(url: string): Promise<{ status: number; type: string | null; bytes: Uint8Array }> {
  // The container URL's cookie dance (302, then the file) is docs/emulator.md, "11. Container URLs".
  const res = await downloadContainer(url);
  return { status: res.status, type: res.headers.get("content-type"), bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe("successful uploads", () => {
  it("Upload: multipart part `upload` -> 200 with the record's new modId", async () => {
    const recordId = await newContact();
    const res = await api.upload(token, CONTACTS, recordId, "Photo", 1, PNG);
    expect(expectOk(res).modId).toBe("1");
    expect((await api.getOk(token, CONTACTS, recordId)).modId).toBe("1");
  });

  it("Upload: the container field then holds a URL that serves the uploaded bytes and type", async () => {
    const recordId = await newContact();
    expectOk(await api.upload(token, CONTACTS, recordId, "Photo", 1, PNG));
    const record = await api.getOk(token, CONTACTS, recordId);
    const url: string = record.fieldData.Photo;
    expect(url.startsWith(`${emu.url}/Streaming/MainDB/`)).toBe(true);
    // The file's extension ends the URL's path, as on real servers; its name is in the answer's Content-Disposition.
    expect(url.endsWith(".png?RCType=EmbeddedRCFileProcessor")).toBe(true);
    const served = await fetchBytes(url);
    expect(served.status).toBe(200);
    expect(served.type?.split(";")[0]).toBe("image/png");
    expect(Buffer.from(served.bytes).equals(Buffer.from(PNG.bytes))).toBe(true);
  });

  it("Upload: fieldRepetition 2 of a repeating container fills key `Attachments(2)` only", async () => {
    const recordId = await newContact();
    expect(expectOk(await api.upload(token, CONTACTS, recordId, "Attachments", 2, PDF)).modId).toBe("1");
    const record = await api.getOk(token, CONTACTS, recordId);
    expect(record.fieldData.Attachments).toBe("");
    expect(typeof record.fieldData["Attachments(2)"]).toBe("string");
    const served = await fetchBytes(record.fieldData["Attachments(2)"]);
    expect(served.status).toBe(200);
    expect(served.type?.split(";")[0]).toBe("application/pdf");
    expect(new TextDecoder().decode(served.bytes)).toBe("%PDF-1.4 tiny");
  });

  it("Upload: modId increments on every upload and edit; a second upload replaces the first", async () => {
    const recordId = await newContact();
    expect(expectOk(await api.upload(token, CONTACTS, recordId, "Photo", 1, PNG)).modId).toBe("1");
    expect(expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { Age: 3 } })).modId).toBe("2");
    expect(expectOk(await api.upload(token, CONTACTS, recordId, "Photo", 1, PDF)).modId).toBe("3");
    const record = await api.getOk(token, CONTACTS, recordId);
    expect(record.modId).toBe("3");
    expect(record.fieldData.Age).toBe(3);
    expect(record.fieldData.Photo.endsWith(".pdf?RCType=EmbeddedRCFileProcessor")).toBe(true);
    const served = await fetchBytes(record.fieldData.Photo);
    expect(new TextDecoder().decode(served.bytes)).toBe("%PDF-1.4 tiny");
  });

  it("Upload: other fields of the record are untouched", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Keep", Age: 9, Phone: "x" } });
    const before = await api.getOk(token, CONTACTS, recordId);
    expectOk(await api.upload(token, CONTACTS, recordId, "Photo", 1, PNG));
    const after = await api.getOk(token, CONTACTS, recordId);
    const { Photo: _p1, Modified: _m1, ...restBefore } = before.fieldData;
    const { Photo: _p2, Modified: _m2, ...restAfter } = after.fieldData;
    expect(restAfter).toEqual(restBefore);
  });
});

describe("rejected uploads change nothing", () => {
  async function expectRejected(send: (recordId: string) => Promise<HttpResult>, status: number, code: string) {
    const recordId = await newContact();
    const before = await api.getOk(token, CONTACTS, recordId);
    expectError(await send(recordId), status, code);
    expect(await api.getOk(token, CONTACTS, recordId)).toEqual(before);
  }

  it("Upload: 404 / 101 when the record is not found", async () => {
    expectError(await api.upload(token, CONTACTS, "999999", "Photo", 1, PNG), 404, "101");
  });

  it("Upload: 404 / 102 when the field is not on the layout", async () => {
    await expectRejected((id) => api.upload(token, CONTACTS, id, "Portrait", 1, PNG), 404, "102");
  });

  it("Upload: 404 / 102 when the field is not a container", async () => {
    await expectRejected((id) => api.upload(token, CONTACTS, id, "First Name", 1, PNG), 404, "102");
  });

  it("Upload: 404 / 102 when the repetition is beyond the field's repetitions", async () => {
    await expectRejected((id) => api.upload(token, CONTACTS, id, "Photo", 2, PNG), 404, "102");
    await expectRejected((id) => api.upload(token, CONTACTS, id, "Attachments", 3, PNG), 404, "102");
  });

  it("Upload: fieldRepetition minimum 1 (0 -> 400 / 1708)", async () => {
    await expectRejected((id) => api.upload(token, CONTACTS, id, "Photo", 0, PNG), 400, "1708");
  });

  it("Upload: a body without the `upload` part -> 400 / 1708", async () => {
    await expectRejected((id) => {
      const form = new FormData();
      form.append("file", new Blob([PNG.bytes], { type: PNG.type }), PNG.filename);
      return api.call("POST", p`/databases/${DB}/layouts/${CONTACTS}/records/${id}/containers/${"Photo"}/1`, { token, body: form });
    }, 400, "1708");
  });

  it("Upload: a body that is not multipart/form-data -> 415 / 1708", async () => {
    await expectRejected(
      (id) =>
        api.call("POST", p`/databases/${DB}/layouts/${CONTACTS}/records/${id}/containers/${"Photo"}/1`, {
          token,
          body: PNG.bytes,
          headers: { "Content-Type": "image/png" },
        }),
      415,
      "1708",
    );
  });

  it("Upload: 401 / 952 without a token; 404 / 105 for an unknown layout", async () => {
    await expectRejected((id) => {
      const form = new FormData();
      form.append("upload", new Blob([PNG.bytes], { type: PNG.type }), PNG.filename);
      return api.call("POST", p`/databases/${DB}/layouts/${CONTACTS}/records/${id}/containers/${"Photo"}/1`, { body: form });
    }, 401, "952");
    await expectRejected((id) => api.upload(token, "No Such Layout", id, "Photo", 1, PNG), 404, "105");
  });
});
