// `node --import ./test/support/load-log.mjs`: registers load-log-hooks.mjs before the program starts.
import { register } from "node:module";

register("./load-log-hooks.mjs", import.meta.url);
