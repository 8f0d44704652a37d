/**
 * The FileMaker side of the WebViewer transport: the bridge script's steps (`bridge-script.ts`), printed as the
 * Script Workspace shows them (`text.ts`) or as FileMaker's clipboard XML (`snippet.ts`). A folder of its own rather
 * than part of `generate/`: the script depends on no description (it is the same for every file), and a folder that
 * imports nothing can be read by the CLI and by the emulator alike.
 */
export { bridgeSteps, calcText, DEFAULT_BRIDGE_NAME, NOT_A_CALL_CODE, STEP_NAMES, type BridgeStep } from "./bridge-script.js";
export { bridgeScriptText } from "./text.js";
export { bridgeSnippet, snippetCoverage, SNIPPET_SHAPES } from "./snippet.js";
