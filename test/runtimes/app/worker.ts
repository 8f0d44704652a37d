// workerd runs this file bundled by esbuild (conditions workerd, worker, browser; no nodejs_compat): each request
// runs the scenario against target.json's emulator and answers its results as JSON.
import { runScenario } from "./scenario.ts";
import target from "./target.json" with { type: "json" };

export default {
  async fetch(): Promise<Response> {
    return Response.json(await runScenario(target));
  },
};
