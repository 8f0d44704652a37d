import { peerImport, peerVersion } from "../support/serve.mjs";
import { proofkitSuite, type ProofkitModule } from "./proofkit-suite.js";

/**
 * @proofgeist/fmdapi 4.4.0 (proofkit's previous name), driven unchanged against `fmgen serve`. Pending: every
 * call fails today at its login (no body; HTTP 400, code 1708). The tests are in proofkit-suite.ts.
 *
 * Calls this client cannot make:
 * | call | reason |
 * |---|---|
 * | productInfo, databases list, duplicate | not offered by its FetchAdapter |
 * | portal ranges and scripts on `get`, scripts on `delete` | the client drops them: its adapter's get and delete send no query string (WIRE.md) |
 * | portal selection (`portal=[...]`) | not offered (only `portalRanges`) |
 * | `dateformats` on `list` | sent unconverted (`dateformats=ISO8601`); only `find` converts it |
 * | OAuth, Claris ID | not offered by FetchAdapter |
 */
proofkitSuite(`@proofgeist/fmdapi ${peerVersion("@proofgeist/fmdapi")} against fmgen serve`, () => peerImport("@proofgeist/fmdapi/dist/index.js") as Promise<ProofkitModule>, { executeScriptNeedsLayout: true });
