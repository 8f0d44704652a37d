import { peerImport, peerVersion } from "../support/serve.mjs";
import { proofkitSuite, type ProofkitModule } from "./proofkit-suite.js";

/**
 * @proofkit/fmdapi 5.1.0 (the newest 5.x whose engines allow Node 20), driven unchanged against `fmgen serve`.
 * Pending: every call fails today at its login (no body; HTTP 400, code 1708). The tests are in proofkit-suite.ts.
 *
 * Calls this client cannot make:
 * | call | reason |
 * |---|---|
 * | productInfo, databases list, duplicate | not offered by its FetchAdapter |
 * | portal ranges and scripts on `get`, scripts on `delete` | the client drops them: its adapter's get and delete send no query string (the options type takes them; WIRE.md) |
 * | portal selection (`portal=[...]`) | not offered (only `portalRanges`) |
 * | `dateformats` on `list` | sent unconverted (`dateformats=ISO8601`, where servers take 0, 1 or 2); only `find` converts it |
 * | OAuth, Claris ID | not offered by FetchAdapter (OttoAdapter takes an API key for an OttoFMS proxy) |
 */
proofkitSuite(`@proofkit/fmdapi ${peerVersion("@proofkit/fmdapi")} against fmgen serve`, () => peerImport("@proofkit/fmdapi/dist/esm/index.js") as Promise<ProofkitModule>);
