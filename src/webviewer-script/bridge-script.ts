/**
 * The FileMaker side of the WebViewer transport: the bridge script, as data. A page in a web viewer calls it with
 * `FileMaker.PerformScriptWithOption(script, call)`; it runs the call's Data API request (`Execute FileMaker Data
 * API`) or its script (`Perform Script` by name), then answers by `Perform JavaScript in Web Viewer`, calling the
 * function the call names, in the web viewer the call names, with the call's id and the result text.
 *
 * The protocol (the runtime's client and the emulator's shim speak the same): the script parameter is
 * `{"v":1,"id":…,"callback":…,"webViewer":…,"request":{…}}` or `{…,"script":{"name":…,"parameter":…}}`; the
 * answer's result text is the step's envelope for a request, and for a script
 * `{"response":{"scriptResult":…,"scriptError":"…"},"messages":[{"code":"0","message":"OK"}]}`. A parameter that is
 * none of these is answered with error 960 when it names a callback and a web viewer, else the script only exits.
 *
 * The steps are stated once, here; `text.ts` prints them as the Script Workspace shows them and `snippet.ts` as
 * FileMaker's clipboard XML, so the two formats cannot drift apart.
 */

/** One script step. Calculations are FileMaker calculation text, exactly as typed into the step's dialog. */
export type BridgeStep =
  | { readonly kind: "comment"; readonly text: string }
  | { readonly kind: "setVariable"; readonly variable: string; readonly value: string }
  | { readonly kind: "if"; readonly condition: string }
  | { readonly kind: "endIf" }
  | { readonly kind: "exitScript"; readonly result: string }
  | { readonly kind: "executeDataApi"; readonly target: string; readonly request: string }
  | { readonly kind: "performScriptByName"; readonly name: string; readonly parameter: string }
  | { readonly kind: "performJavaScript"; readonly objectName: string; readonly functionName: string; readonly parameters: readonly string[] };

/** The kinds of step the bridge uses, and the step's name in FileMaker. */
export const STEP_NAMES: Readonly<Record<BridgeStep["kind"], string>> = {
  comment: "# (comment)",
  setVariable: "Set Variable",
  if: "If",
  endIf: "End If",
  exitScript: "Exit Script",
  executeDataApi: "Execute FileMaker Data API",
  performScriptByName: "Perform Script",
  performJavaScript: "Perform JavaScript in Web Viewer",
};

/** The script's name when `--name` is not given; the runtime's `createWebViewerClient` is told the same name. */
export const DEFAULT_BRIDGE_NAME = "fmgen webviewer";

/** The error code of an answer to a parameter that is not a bridge call (FileMaker's "Parameter is invalid"). */
export const NOT_A_CALL_CODE = "960";

/** A FileMaker calculation's text literal: quotes and backslashes escaped, as FileMaker's own `Quote()` writes. */
export function calcText(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

const notACallEnvelope = [
  'JSONSetElement ( "{}" ;',
  '  [ "response" ; "{}" ; JSONObject ] ;',
  `  [ "messages[0].code" ; ${calcText(NOT_A_CALL_CODE)} ; JSONString ] ;`,
  `  [ "messages[0].message" ; ${calcText("Not an fmgen bridge call: v must be 1, with a request or a script")} ; JSONString ]`,
  ")",
].join("\n");

const scriptEnvelope = [
  'JSONSetElement ( "{}" ;',
  '  [ "response.scriptResult" ; $scriptResult ; JSONString ] ;',
  '  [ "response.scriptError" ; $scriptError ; JSONString ] ;',
  '  [ "messages[0].code" ; "0" ; JSONString ] ;',
  '  [ "messages[0].message" ; "OK" ; JSONString ]',
  ")",
].join("\n");

/** A member of the call, or empty when the parameter is not a JSON object. */
const member = (path: string) => `If ( $isCall ; JSONGetElement ( $call ; ${calcText(path)} ) )`;

/** The bridge script's steps, for a script named `name` (the name only appears in its comments). */
export function bridgeSteps(name: string = DEFAULT_BRIDGE_NAME): readonly BridgeStep[] {
  const comment = (text: string): BridgeStep => ({ kind: "comment", text });
  const set = (variable: string, value: string): BridgeStep => ({ kind: "setVariable", variable, value });
  return [
    comment(`${name}: answers a page in a web viewer that uses fmgen's WebViewer client (@fmgen/runtime/webviewer).`),
    comment(`The page calls FileMaker.PerformScriptWithOption ( "${name}", <call>, <option> ) with the call as JSON text:`),
    comment('{"v":1,"id":…,"callback":…,"webViewer":…,"request":{…}} or {"v":1,…,"script":{"name":…,"parameter":…}}'),
    comment("The answer goes to the web viewer and the function the call names: no object name is written here."),
    comment(""),
    set("$call", "Get ( ScriptParameter )"),
    set("$isCall", 'Left ( JSONFormatElements ( $call ) ; 1 ) = "{"'),
    set("$id", member("id")),
    set("$callback", member("callback")),
    set("$webViewer", member("webViewer")),
    set("$version", `GetAsNumber ( ${member("v")} )`),
    set("$request", member("request")),
    set("$scriptName", member("script.name")),
    comment(`Until a step below answers, the answer is error ${NOT_A_CALL_CODE}: not a call this script knows.`),
    set("$result", notACallEnvelope),
    comment(""),
    comment("No callback or no web viewer named: there is no one to answer, so stop here."),
    { kind: "if", condition: "IsEmpty ( $callback ) or IsEmpty ( $webViewer )" },
    { kind: "exitScript", result: "$result" },
    { kind: "endIf" },
    comment(""),
    comment("A Data API request: the step runs it on this file, with the user's own account and privileges."),
    { kind: "if", condition: "$version = 1 and not IsEmpty ( $request )" },
    { kind: "executeDataApi", target: "$result", request: "$request" },
    { kind: "endIf" },
    comment(""),
    comment("A script, by its name, with its parameter: answer its result and its error."),
    { kind: "if", condition: "$version = 1 and IsEmpty ( $request ) and not IsEmpty ( $scriptName )" },
    { kind: "performScriptByName", name: "$scriptName", parameter: member("script.parameter") },
    comment("Read the error first: every step, Set Variable too, sets Get ( LastError ) again."),
    set("$scriptError", "Get ( LastError )"),
    set("$scriptResult", "Get ( ScriptResult )"),
    set("$result", scriptEnvelope),
    { kind: "endIf" },
    comment(""),
    comment("Answer the page: the call's callback gets the call's id and the result text."),
    { kind: "performJavaScript", objectName: "$webViewer", functionName: "$callback", parameters: ["$id", "$result"] },
  ];
}
