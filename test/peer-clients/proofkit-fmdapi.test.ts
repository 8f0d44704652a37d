import { peerImport, peerVersion } from "./support/serve.mjs";
import { proofkitSuite, type ProofkitModule } from "./support/proofkit-suite.js";

/**
 * @proofkit/fmdapi 5.1.0 (the newest 5.x whose engines allow Node 20), driven unchanged against `fmgen serve`
 * (test/peer-clients/node_modules, its own lockfile; loopback only). The tests are in support/proofkit-suite.ts.
 *
 * Calls this client cannot make:
 * | call | reason |
 * |---|---|
 * | productInfo, databases list, duplicate | not offered by its FetchAdapter |
 * | portal ranges and scripts on `get`, scripts on `delete` | the client drops them: its adapter's get and delete send no query string (the options type takes them; WIRE.md) |
 * | portal selection (`portal=[...]`) | not offered (only `portalRanges`) |
 * | `dateformats` on `list` | sent unconverted (`dateformats=ISO8601`, where servers take 0, 1 or 2); only `find` converts it |
 * | `update` with `modId` as its types say, a number | sent as a JSON number (`"modId":0`), which FileMaker Server 18 and later refuse (beezwax/fmrest-ruby#25) and the emulator answers 1708 (tested); the modId string of its own answers, passed on unchanged, works and is tested |
 * | OAuth, Claris ID | not offered by FetchAdapter (OttoAdapter takes an API key for an OttoFMS proxy) |
 */
proofkitSuite(`@proofkit/fmdapi ${peerVersion("@proofkit/fmdapi")} against fmgen serve`, () => peerImport("@proofkit/fmdapi/dist/esm/index.js") as Promise<ProofkitModule>);
