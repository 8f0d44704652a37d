import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { bridgeSteps, snippetCoverage, STEP_NAMES } from "../../src/webviewer-script/index.js";
import { memoryIo } from "../pull/helpers.js";

async function printed(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await run(["webviewer-script", ...args], io);
  return { code, out: io.out.join("\n"), err: io.err.join("\n") };
}

/** The snippet's steps, in order: each step's attributes and children as fast-xml-parser reads them. */
function snippetSteps(xml: string): Record<string, unknown>[] {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (name) => name === "Step" || name === "P", cdataPropName: "#cdata" });
  const doc = parser.parse(xml) as { fmxmlsnippet: { "@type": string; Step: Record<string, unknown>[] } };
  expect(doc.fmxmlsnippet["@type"]).toBe("FMObjectList");
  return doc.fmxmlsnippet.Step;
}

const cdata = (node: unknown): string => String((node as { Calculation: { "#cdata": string } }).Calculation["#cdata"]);

describe("fmgen webviewer-script --format text", () => {
  it("prints numbered steps as the Script Workspace shows them", async () => {
    const { code, out, err } = await printed([]);
    expect(code).toBe(0);
    expect(err).toBe("");
    // A blank line is an empty comment step: its number alone.
    const numbered = out.split("\n").filter((l) => /^ *\d+(?: {2}|$)/.test(l));
    expect(numbered).toHaveLength(bridgeSteps().length);
    expect(numbered.map((l) => Number(/^ *(\d+)/.exec(l)![1]))).toEqual(bridgeSteps().map((_, i) => i + 1));
    expect(out).toMatch(/^ *\d+ {2}Set Variable \[ \$call ; Value: Get \( ScriptParameter \) \]$/m);
    expect(out).toMatch(/^ *\d+ {6}Execute FileMaker Data API \[ Select ; Target: \$result ; \$request \]$/m);
    expect(out).toMatch(/^ *\d+ {6}Perform Script \[ By name: \$scriptName ; Parameter: If \( \$isCall ; JSONGetElement \( \$call ; "script\.parameter" \) \) \]$/m);
    expect(out).toMatch(/^ *\d+ {6}Exit Script \[ Text Result: \$result \]$/m);
    expect(out).toMatch(/^ *\d+ {2}# /m);
    expect(out).toMatch(/^ *\d+ {2}End If$/m);
  });

  it("answers the web viewer and the callback the call names, never a hard-coded object or function", async () => {
    const { out } = await printed([]);
    const answer = out.split("\n").find((l) => l.includes("Perform JavaScript in Web Viewer ["));
    expect(answer).toMatch(/Perform JavaScript in Web Viewer \[ Object Name: \$webViewer ; Function Name: \$callback ; Parameters: \$id, \$result \]$/);
    expect(out).toContain('Set Variable [ $webViewer ; Value: If ( $isCall ; JSONGetElement ( $call ; "webViewer" ) ) ]');
    expect(out).toContain('Set Variable [ $callback ; Value: If ( $isCall ; JSONGetElement ( $call ; "callback" ) ) ]');
    expect(out).toContain('Set Variable [ $id ; Value: If ( $isCall ; JSONGetElement ( $call ; "id" ) ) ]');
  });

  it("answers a script's result and its error with JSONSetElement, reading Get ( LastError ) right after Perform Script", async () => {
    const lines = (await printed([])).out.split("\n");
    const perform = lines.findIndex((l) => l.includes("Perform Script [ By name:"));
    const next = lines.slice(perform + 1).filter((l) => !/^ *\d+ {2}\s*#/.test(l));
    expect(next[0]).toContain("Set Variable [ $scriptError ; Value: Get ( LastError ) ]");
    const script = lines.join("\n");
    expect(script).toContain('[ "response.scriptResult" ; $scriptResult ; JSONString ]');
    expect(script).toContain('[ "response.scriptError" ; $scriptError ; JSONString ]');
    expect(script).toContain('[ "messages[0].code" ; "0" ; JSONString ]');
  });

  it("answers error 960 to a call it does not know, and exits when no callback can be told", async () => {
    const out = (await printed([])).out;
    expect(out).toContain('[ "messages[0].code" ; "960" ; JSONString ]');
    expect(out).toContain("If [ IsEmpty ( $callback ) or IsEmpty ( $webViewer ) ]");
    expect(out).toContain("If [ $version = 1 and not IsEmpty ( $request ) ]");
  });

  it("names the script by --name where the name appears, and only there", async () => {
    const standard = (await printed([])).out;
    const named = (await printed(["--name", "Bridge (Contacts)"])).out;
    expect(standard).toContain('FileMaker.PerformScriptWithOption ( "fmgen webviewer"');
    expect(standard).toMatch(/^ *1 {2}# fmgen webviewer: /m);
    expect(named).toContain('FileMaker.PerformScriptWithOption ( "Bridge (Contacts)"');
    expect(named).toMatch(/^ *1 {2}# Bridge \(Contacts\): /m);
    expect(named).not.toContain("fmgen webviewer");
    expect(named.replaceAll("Bridge (Contacts)", "fmgen webviewer")).toBe(standard);
  });

  it("refuses an empty --name and an unknown --format with exit code 2", async () => {
    expect((await printed(["--name", " "])).code).toBe(2);
    const wrong = await printed(["--format", "html"]);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/format/);
  });
});

describe("fmgen webviewer-script --format xml", () => {
  it("prints well-formed fmxmlsnippet XML, one Step per step of the text, in the same order", async () => {
    const { code, out } = await printed(["--format", "xml"]);
    expect(code).toBe(0);
    expect(XMLValidator.validate(out)).toBe(true);
    const steps = snippetSteps(out);
    expect(steps.map((s) => s["@name"])).toEqual(bridgeSteps().map((s) => STEP_NAMES[s.kind]));
    for (const step of steps) expect(step["@enable"]).toBe("True");
  });

  it("holds each covered step with FileMaker's step id, and leaves none out", async () => {
    const steps = snippetSteps((await printed(["--format", "xml"])).out);
    const ids = new Map(steps.map((s) => [s["@name"], s["@id"]]));
    expect(Object.fromEntries(ids)).toEqual({
      "# (comment)": "89",
      "Set Variable": "141",
      If: "68",
      "End If": "70",
      "Exit Script": "103",
      "Execute FileMaker Data API": "203",
      "Perform Script": "1",
      "Perform JavaScript in Web Viewer": "175",
    });
    expect(snippetCoverage(bridgeSteps()).leftOut).toEqual([]);
  });

  it("writes each step's options as the text shows them", async () => {
    const steps = snippetSteps((await printed(["--format", "xml"])).out);
    const byName = (name: string) => steps.filter((s) => s["@name"] === name);
    const call = byName("Set Variable")[0]!;
    expect(call.Name).toBe("$call");
    expect(cdata(call.Value)).toBe("Get ( ScriptParameter )");
    expect(cdata(call.Repetition)).toBe("1");

    const dataApi = byName("Execute FileMaker Data API")[0]!;
    expect(dataApi.SelectAll).toEqual({ "@state": "True" });
    expect(cdata(dataApi)).toBe("$request");
    expect(dataApi.Field).toBe("$result");

    const perform = byName("Perform Script")[0]!;
    expect(cdata(perform.Calculated)).toBe("$scriptName");
    expect(cdata(perform)).toBe('If ( $isCall ; JSONGetElement ( $call ; "script.parameter" ) )');

    const answer = byName("Perform JavaScript in Web Viewer")[0]!;
    expect(cdata(answer.ObjectName)).toBe("$webViewer");
    expect(cdata(answer.FunctionName)).toBe("$callback");
    const parameters = answer.Parameters as { "@Count": string; P: unknown[] };
    expect(parameters["@Count"]).toBe("2");
    expect(parameters.P.map(cdata)).toEqual(["$id", "$result"]);

    expect(byName("If").map((s) => cdata(s))).toEqual([
      "IsEmpty ( $callback ) or IsEmpty ( $webViewer )",
      "$version = 1 and not IsEmpty ( $request )",
      "$version = 1 and IsEmpty ( $request ) and not IsEmpty ( $scriptName )",
    ]);
    expect(cdata(byName("Exit Script")[0])).toBe("$result");
  });

  it("carries --name into its comment steps, escaped", async () => {
    const out = (await printed(["--format", "xml", "--name", 'A & <B> "c"'])).out;
    expect(XMLValidator.validate(out)).toBe(true);
    expect(out).toContain("<Text>A &amp; &lt;B&gt; &quot;c&quot;: answers");
    const comments = snippetSteps(out).filter((s) => s["@name"] === "# (comment)").map((s) => String(s.Text ?? ""));
    expect(comments[0]).toMatch(/^A & <B> "c": /);
    expect(comments[1]).toContain('PerformScriptWithOption ( "A & <B> "c""');
  });
});
