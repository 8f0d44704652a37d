/**
 * `recordSchema`, what generated `<Name>Schema` exports are: zod schemas of records as the runtime returns them, for
 * checking records that come from elsewhere (a queue, a cache, a request body). zod is an optional peer dependency:
 * only apps that use a schema need it.
 *
 * For bundlers and runtimes without Node's modules (the "workerd", "browser" and "default" export conditions) zod is
 * imported as usual, so that a bundler includes it, or leaves it out with every `<Name>Schema` the app does not use
 * (generated modules mark the call pure). A bundler must still resolve zod here: only the generated schemas.ts
 * imports this entry, and index.ts does not re-export it, so that an app without schemas never gets here. Node, Deno
 * and Bun get schema-node.ts, which has the same signature and loads zod only when a schema is first used.
 *
 * @module \@fmgen/runtime/schema
 */
import { z } from "zod";
import type { LayoutSpec } from "./data-api/definition.js";
import { buildRecordSchema } from "./data-api/record-schema.js";

/** The zod schema of a record of `spec` as the runtime returns it; what generated `<Name>Schema` exports are. */
export function recordSchema(spec: LayoutSpec): z.ZodType {
  return buildRecordSchema(z, spec);
}
