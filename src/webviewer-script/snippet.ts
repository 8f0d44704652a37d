import { type BridgeStep, STEP_NAMES } from "./bridge-script.js";

/**
 * The steps as FileMaker's clipboard XML for script steps (`<fmxmlsnippet type="FMObjectList">`, one `<Step>` per
 * step), what FileMaker itself puts on the clipboard when script steps are copied in the Script Workspace.
 *
 * Claris documents no grammar for this clipboard format (its published grammars are the Database Design Report's and
 * Save a Copy as XML's, which are other formats). Each step below is therefore written only in the shape that
 * published captures of FileMaker's own clipboard show for it, with FileMaker's step id; docs/webviewer.md names
 * them. A kind of step without such a capture must not be guessed: `SNIPPET_SHAPES` would hold `undefined` for it,
 * and the snippet would then leave that step out and say so (see `bridgeSnippet`). Every step the bridge uses has a
 * known shape today.
 */
export const SNIPPET_SHAPES: Readonly<Record<BridgeStep["kind"], { readonly id: number } | undefined>> = {
  comment: { id: 89 },
  setVariable: { id: 141 },
  if: { id: 68 },
  endIf: { id: 70 },
  exitScript: { id: 103 },
  executeDataApi: { id: 203 },
  performScriptByName: { id: 1 },
  performJavaScript: { id: 175 },
};

/** The steps' names the snippet covers, in the order the bridge first uses them. */
export function snippetCoverage(steps: readonly BridgeStep[]): { covered: string[]; leftOut: string[] } {
  const names = (known: boolean) => [...new Set(steps.filter((s) => (SNIPPET_SHAPES[s.kind] !== undefined) === known).map((s) => STEP_NAMES[s.kind]))];
  return { covered: names(true), leftOut: names(false) };
}

/**
 * The clipboard XML of `steps`. A step whose shape is not known is replaced by a comment step saying which step to
 * add by hand (a comment step, not an XML comment: what FileMaker does with XML comments on paste is not known).
 */
export function bridgeSnippet(steps: readonly BridgeStep[]): string {
  const lines = steps.map((step, i) => {
    const shape = SNIPPET_SHAPES[step.kind];
    if (!shape) return commentStep(`Step ${i + 1} (${STEP_NAMES[step.kind]}) left out: its clipboard XML is not established; add it by hand (fmgen webviewer-script).`);
    return stepXml(step, shape.id);
  });
  return [`<?xml version="1.0" encoding="UTF-8"?>`, `<fmxmlsnippet type="FMObjectList">`, ...lines.map((l) => `  ${l}`), `</fmxmlsnippet>`].join("\n");
}

function stepXml(step: BridgeStep, id: number): string {
  const open = `<Step enable="True" id="${id}" name="${escapeXml(STEP_NAMES[step.kind])}"`;
  switch (step.kind) {
    case "comment":
      return step.text === "" ? `${open}/>` : `${open}><Text>${escapeXml(step.text)}</Text></Step>`;
    case "setVariable":
      return `${open}><Value>${calc(step.value)}</Value><Repetition>${calc("1")}</Repetition><Name>${escapeXml(step.variable)}</Name></Step>`;
    case "if":
      return `${open}><Restore state="False"/>${calc(step.condition)}</Step>`;
    case "endIf":
      return `${open}/>`;
    case "exitScript":
      return `${open}>${calc(step.result)}</Step>`;
    case "executeDataApi":
      // "Select" (Select entire contents) is SelectAll; a variable target is an empty Text then the variable's name.
      return `${open}><SelectAll state="True"/>${calc(step.request)}<Text/><Field>${escapeXml(step.target)}</Field></Step>`;
    case "performScriptByName":
      // By name: the name's calculation inside Calculated, then the parameter's calculation.
      return `${open}><Calculated>${calc(step.name)}</Calculated>${calc(step.parameter)}</Step>`;
    case "performJavaScript":
      return (
        `${open}><ObjectName>${calc(step.objectName)}</ObjectName><FunctionName>${calc(step.functionName)}</FunctionName>` +
        `<Parameters Count="${step.parameters.length}">${step.parameters.map((p) => `<P>${calc(p)}</P>`).join("")}</Parameters></Step>`
      );
  }
}

function commentStep(text: string): string {
  return `<Step enable="True" id="89" name="# (comment)"><Text>${escapeXml(text)}</Text></Step>`;
}

/** A calculation, in CDATA as FileMaker writes it (a `]]>` inside is split across two sections). */
function calc(text: string): string {
  return `<Calculation><![CDATA[${text.replace(/]]>/g, "]]]]><![CDATA[>")}]]></Calculation>`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
