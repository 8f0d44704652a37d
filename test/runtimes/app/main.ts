// Deno, Bun and Node (tsc's output) run this file: the scenario against target.json's emulator, its results printed as
// one line that the test reads, with the file the runtime loaded for "@fmgen/runtime" (its export conditions' pick).
import { runScenario } from "./scenario.ts";
import target from "./target.json" with { type: "json" };

const entry = import.meta.resolve("@fmgen/runtime");
console.log(`FMGEN-RUNTIME-RESULTS ${JSON.stringify({ entry, results: await runScenario(target) })}`);
