import { peerImport, peerVersion } from "./support/serve.mjs";
import { proofkitSuite, type ProofkitModule } from "./support/proofkit-suite.js";

/**
 * @proofgeist/fmdapi 4.4.0 (proofkit's previous name), driven unchanged against `fmgen serve`
 * (test/peer-clients/node_modules, its own lockfile; loopback only). The tests are in support/proofkit-suite.ts.
 *
 * Calls this client cannot make:
 * | call | reason |
 * |---|---|
 * | productInfo, databases list, duplicate | not offered by its FetchAdapter |
 * | portal ranges and scripts on `get`, scripts on `delete` | the client drops them: its adapter's get and delete send no query string (WIRE.md) |
 * | portal selection (`portal=[...]`) | not offered (only `portalRanges`) |
 * | `dateformats` on `list` | sent unconverted (`dateformats=ISO8601`); only `find` converts it |
 * | `update` with `modId` as its types say, a number | sent as a JSON number (`"modId":0`), which FileMaker Server 18 and later refuse (beezwax/fmrest-ruby#25) and the emulator answers 1708 (tested); the modId string of its own answers, passed on unchanged, works and is tested |
 * | OAuth, Claris ID | not offered by FetchAdapter |
 */
proofkitSuite(`@proofgeist/fmdapi ${peerVersion("@proofgeist/fmdapi")} against fmgen serve`, () => peerImport("@proofgeist/fmdapi/dist/index.js") as Promise<ProofkitModule>, { executeScriptNeedsLayout: true });
