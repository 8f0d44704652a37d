import { readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LayoutFileError } from "../../src/layout/index.js";
import { mergeLayout, type LiveField, type LiveLayout } from "../../src/pull/index.js";
import { listenLoopback, type LoopbackServer } from "../support/loopback-server.js";
import { copyExample, runPull, startExampleEmulator, type Emulator } from "./helpers.js";

/** A field as the metadata endpoint tells it. */
function meta(name: string, extra: Partial<LiveField> = {}): LiveField {
  return { name, type: "text", repetitions: 1, calculated: false, required: false, global: false, autoEnter: false, valueList: null, ...extra };
}

function live(fields: LiveField[], extra: Partial<LiveLayout> = {}): LiveLayout {
  return { database: "Db", layout: "Things", source: "metadata", table: "Things", fields, portals: [], notes: [], ...extra };
}

const WHY = 'servers read "Phone(2)" as repetition 2 of "Phone", so one key would name both fields (writes and finds on one reach the other)';

describe("a pull never writes a description whose fields share a wire key", () => {
  it("mergeLayout refuses a server field named like a repetition of another, as loading the file would, naming the file", () => {
    const server = live([meta("id"), meta("Phone", { repetitions: 2 }), meta("Phone(2)")]);
    const merge = () => mergeLayout({ live: server, path: "layouts/Things.layout.json" });
    expect(merge).toThrowError(LayoutFileError);
    expect(merge).toThrowError(`layouts/Things.layout.json: fields[2] "Phone(2)" has the wire key of repetition 2 of fields[1] "Phone": ${WHY}`);
  });

  it("mergeLayout describes a field the server lists twice once", () => {
    const { description } = mergeLayout({ live: live([meta("id"), meta("Name"), meta("id")]) });
    expect(description.fields.map((f) => f.name)).toEqual(["id", "Name"]);
  });

  describe("fmgen pull against a server whose layout shows Phone (3 repetitions) and a field named Phone(2)", () => {
    let emu: Emulator;
    let proxy: LoopbackServer;
    let url: string;
    beforeAll(async () => {
      emu = await startExampleEmulator("contacts");
      proxy = await metadataRewritingProxy(emu.url, (metadata) => {
        if (metadata.fieldMetaData.some((f) => f.name === "Phone")) metadata.fieldMetaData.push({ name: "Phone(2)", type: "normal", result: "text", maxRepeat: 1 });
      });
      url = proxy.url;
    });
    afterAll(async () => {
      await proxy.close();
      await emu.close();
    });

    it("fails that layout with the loader's error naming the file and both fields, writes nothing for it, and pulls the others", async () => {
      const root = await copyExample("contacts");
      const before = await readFile(join(root, "layouts/Contact.layout.json"), "utf8");
      const { code, out, err } = await runPull(root, url);
      expect(code).toBe(1);
      expect(out).toMatch(
        /^Contacts Web -> layouts\/Contact\.layout\.json: FAILED: layouts\/Contact\.layout\.json: fields\[\d+\] "Phone\(2\)" has the wire key of repetition 2 of fields\[\d+\] "Phone": servers read /m,
      );
      expect(out).toMatch(/^Invoices Web -> layouts\/Invoice\.layout\.json \(metadata\): up to date$/m);
      expect(err).toMatch(/failed: Contacts Web/);
      expect(await readFile(join(root, "layouts/Contact.layout.json"), "utf8")).toBe(before);
    });
  });
});

interface FieldMeta {
  name: string;
  [key: string]: unknown;
}

/** A loopback proxy that lets `rewrite` change the body of every layout metadata answer. */
async function metadataRewritingProxy(target: string, rewrite: (metadata: { fieldMetaData: FieldMeta[] }) => void): Promise<LoopbackServer> {
  const upstream = new URL(target);
  return listenLoopback((req, res) => {
    const isMetadata = req.method === "GET" && /\/layouts\/[^/]+$/.test(req.url ?? "");
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (c: Buffer) => chunks.push(c));
      answer.on("end", () => {
        let body = Buffer.concat(chunks);
        if (isMetadata && answer.statusCode === 200) {
          const envelope = JSON.parse(body.toString("utf8")) as { response: { fieldMetaData: FieldMeta[] } };
          rewrite(envelope.response);
          body = Buffer.from(JSON.stringify(envelope));
        }
        const headers = { ...answer.headers, "content-length": String(body.length) };
        res.writeHead(answer.statusCode ?? 502, headers);
        res.end(body);
      });
    });
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
}
