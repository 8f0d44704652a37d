// The contacts example end to end: start `fmgen serve` on this folder's layouts and seed data, then use a
// session the way any Data API client does. (Generated typed clients replace the raw calls below once the
// generator lands.)
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const bin = fileURLToPath(new URL("../../dist/cli/bin.js", import.meta.url));

const server = spawn(process.execPath, [bin, "serve", "--layouts", `${here}layouts`, "--data", `${here}seed.json`], {
  stdio: ["ignore", "pipe", "inherit"],
});
try {
  const url = await firstLine(server);
  console.log(`emulator listening at ${url}`);
  await useSession(`${url}/fmi/data/vLatest/databases/Contacts`);
} finally {
  server.kill();
}

async function useSession(base) {
  const login = await call(`${base}/sessions`, "POST", {}, { authorization: `Basic ${Buffer.from("web:secret").toString("base64")}` });
  const token = login.token;
  console.log("logged in");
  const auth = { authorization: `Bearer ${token}` };
  const layout = `${base}/layouts/${encodeURIComponent("Contacts Web")}`;

  const list = await call(`${layout}/records?_limit=10&_sort=${encodeURIComponent(JSON.stringify([{ fieldName: "Last Name", sortOrder: "ascend" }]))}`, "GET", undefined, auth);
  console.log(`list: ${list.dataInfo.foundCount} contacts:`, list.data.map((r) => `${r.fieldData["First Name"]} ${r.fieldData["Last Name"]}`).join(", "));

  const created = await call(`${layout}/records`, "POST", { fieldData: { "First Name": "Margaret", "Last Name": "Hamilton", Email: "margaret@example.com", Status: "Active", Birthday: "08/17/1936" }, portalData: { Invoices: [{ "Invoices::Amount": 42, "Invoices::Issued": "07/20/1969" }] } }, auth);
  console.log(`created record ${created.recordId} (modId ${created.modId})`);

  const edited = await call(`${layout}/records/${created.recordId}`, "PATCH", { fieldData: { "Wake Up": "05:45:00" }, modId: created.modId }, auth);
  console.log(`edited it: modId ${created.modId} -> ${edited.modId}`);

  const form = new FormData();
  form.append("upload", new Blob(["pretend this is a photo"], { type: "image/png" }), "margaret.png");
  const uploaded = await call(`${layout}/records/${created.recordId}/containers/Photo/1`, "POST", form, auth);
  console.log(`uploaded a photo: modId ${uploaded.modId}`);

  const found = await call(`${layout}/_find`, "POST", { query: [{ Status: "Active", Birthday: "1/1/1900...12/31/1950" }, { "Company::Name": "NASA", omit: "true" }], sort: [{ fieldName: "Birthday", sortOrder: "descend" }] }, auth);
  for (const r of found.data) {
    const invoices = r.portalData.Invoices.map((i) => i["Invoices::Amount"]).join(", ") || "none";
    console.log(`found: ${r.fieldData["First Name"]} ${r.fieldData["Last Name"]}, born ${r.fieldData.Birthday}, invoices: ${invoices}, photo: ${r.fieldData.Photo ? "yes" : "no"}`);
  }
  const photoUrl = found.data.find((r) => r.recordId === created.recordId).fieldData.Photo;
  console.log(`photo bytes served back: "${await (await fetch(photoUrl)).text()}"`);

  await call(`${base}/sessions/${token}`, "DELETE");
  console.log("logged out");
}

/** One Data API call; throws with the FileMaker code when messages[0].code is not "0". */
async function call(url, method, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  const envelope = await res.json();
  const { code, message } = envelope.messages[0];
  if (code !== "0") throw new Error(`${method} ${new URL(url).pathname}: FileMaker code ${code} (${message}), HTTP ${res.status}`);
  return envelope.response;
}

function firstLine(child) {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`fmgen serve exited with code ${code} before printing its URL`)));
  });
}
