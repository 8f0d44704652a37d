import { type BridgeStep, STEP_NAMES } from "./bridge-script.js";

/**
 * The steps as FileMaker's Script Workspace shows them, one numbered line per step (a calculation of several lines
 * continues under its step, unnumbered), indented inside If as the workspace indents them, so that a reader can type
 * the script in step by step.
 */
export function bridgeScriptText(steps: readonly BridgeStep[]): string {
  const width = String(steps.length).length;
  const lines: string[] = [];
  let depth = 0;
  steps.forEach((step, i) => {
    if (step.kind === "endIf") depth--;
    const number = String(i + 1).padStart(width);
    const indent = "    ".repeat(depth);
    const [first = "", ...rest] = stepText(step).split("\n");
    lines.push(`${number}  ${indent}${first}`.trimEnd());
    for (const line of rest) lines.push(`${" ".repeat(width)}  ${indent}    ${line}`);
    if (step.kind === "if") depth++;
  });
  return lines.join("\n");
}

/** One step as the workspace words it: its name, then its options in brackets. */
function stepText(step: BridgeStep): string {
  const name = STEP_NAMES[step.kind];
  switch (step.kind) {
    case "comment":
      return step.text === "" ? "" : `# ${step.text}`;
    case "setVariable":
      return `${name} [ ${step.variable} ; Value: ${step.value} ]`;
    case "if":
      return `${name} [ ${step.condition} ]`;
    case "endIf":
      return name;
    case "exitScript":
      return `${name} [ Text Result: ${step.result} ]`;
    case "executeDataApi":
      return `${name} [ Select ; Target: ${step.target} ; ${step.request} ]`;
    case "performScriptByName":
      return `${name} [ By name: ${step.name} ; Parameter: ${step.parameter} ]`;
    case "performJavaScript":
      return `${name} [ Object Name: ${step.objectName} ; Function Name: ${step.functionName} ; Parameters: ${step.parameters.join(", ")} ]`;
  }
}
