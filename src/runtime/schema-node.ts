// @fmgen/runtime/schema on Node, Deno and Bun. zod is an optional peer dependency, and importing a generated
// module must not load it: each `<Name>Schema` is a stand-in that loads zod (synchronously, through require)
// and builds the real schema the first time it is used. An app that never touches a schema never loads zod.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import type { LayoutSpec } from "./data-api/definition.js";
import { buildRecordSchema } from "./data-api/record-schema.js";

let zod: typeof z | undefined;

/**
 * zod, loaded now: its ES module through require (Node >= 20.19), so that this is the very module instance an
 * app's own `import { z } from "zod"` gets, and schemas mix; its CommonJS build where that is not possible.
 */
function loadZod(): typeof z {
  if (zod) return zod;
  const require = createRequire(import.meta.url);
  let url: string;
  try {
    url = import.meta.resolve("zod");
  } catch (error) {
    throw new Error('a <Name>Schema needs zod, an optional peer dependency of @fmgen/runtime: install it ("npm install zod")', { cause: error });
  }
  try {
    zod = (require(fileURLToPath(url)) as { z: typeof z }).z;
  } catch {
    zod = (require("zod") as { z: typeof z }).z;
  }
  return zod;
}

/** The zod schema of a record of `spec` as the runtime returns it; what generated `<Name>Schema` exports are. */
export function recordSchema(spec: LayoutSpec): z.ZodType {
  let schema: z.ZodType | undefined;
  const real = (): z.ZodType => (schema ??= buildRecordSchema(loadZod(), spec));
  // Every operation on the stand-in is an operation on the real schema, built at the first of them.
  return new Proxy({} as z.ZodType, {
    get: (_, key) => {
      const value: unknown = Reflect.get(real(), key);
      return typeof value === "function" ? value.bind(real()) : value;
    },
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      // The stand-in's own target has none of these properties: reported configurable, as a proxy must.
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
  });
}
