// Deno and Bun run this file as TypeScript: the scenario against target.json's emulator, its results printed as one
// line that the test reads (RESULTS_PREFIX + JSON).
import { runScenario } from "./scenario.ts";
import target from "./target.json" with { type: "json" };

console.log(`FMGEN-RUNTIME-RESULTS ${JSON.stringify(await runScenario(target))}`);
