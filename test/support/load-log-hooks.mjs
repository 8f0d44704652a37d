// Module hooks (Node's module.register) that append the URL of every module loaded to the file FMGEN_LOAD_LOG names:
// how a test sees which of the runtime's files a program loaded, and when.
import { appendFileSync } from "node:fs";

export async function load(url, context, nextLoad) {
  if (process.env.FMGEN_LOAD_LOG) appendFileSync(process.env.FMGEN_LOAD_LOG, `${url}\n`);
  return nextLoad(url, context);
}
