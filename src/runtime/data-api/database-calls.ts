import { broken, isObject } from "./answer-shape.js";
import { describe } from "./codecs.js";
import type { AnyDatabase, GlobalsOf, LayoutOfClient, ScriptNameOf } from "./database.js";
import { checkDatabase, type AnyDefinition } from "./definition.js";
import { decimal } from "./find-criteria.js";
import { setOwn } from "../core/own.js";
import { scriptsIn, type ScriptResult } from "./script-options.js";
import { basicAuth } from "../core/basic-auth.js";
import type { Auth, Session } from "./session.js";
import { segment, type Envelope, type WireRequest } from "./transport.js";

/** `GET /productInfo`: the server's product, version and the date formats of `dateFormat: "us"`. */
export interface ProductInfo {
  /** The product's name (`FileMaker Data API Engine`). */
  name: string;
  /** The server's build date, as it words it. */
  buildDate: string;
  /** The server's version (`21.1.1.41`). */
  version: string;
  /** How dates travel in the US format (`MM/dd/yyyy`). */
  dateFormat: string;
  /** How times travel (`HH:mm:ss`). */
  timeFormat: string;
  /** How timestamps travel (`MM/dd/yyyy HH:mm:ss`). */
  timeStampFormat: string;
}

/** One hosted file of `GET /databases`. */
export interface DatabaseEntry {
  /** The file's name, without `.fmp12`: what a client's `database` takes. */
  name: string;
}

type Signal = { signal?: AbortSignal };

/** The client's calls that belong to no layout's records. */
export interface DatabaseCalls<Db extends AnyDatabase> {
  /**
   * Runs a script on a layout (its definition, or its name), alone: `GET /layouts/{layout}/script/{name}`. A script
   * that fails is an answer (`error` other than "0"), never thrown; a script the file lacks is a ScriptMissingError.
   * As in `fm.layout()`, a definition of another database's layout fails to compile (`LayoutOfClient`).
   */
  runScript<D extends AnyDefinition | string>(layout: D extends AnyDefinition ? LayoutOfClient<D, Db> : D, name: ScriptNameOf<Db>, options?: Signal & { param?: string }): Promise<ScriptResult>;
  /**
   * Sets global fields (`TO::field`, `TO::field(2)` for a repetition) for this client's session: `PATCH /globals`.
   * They last as long as the session: after a logout, or a new login (an idle or expired token), set them again.
   */
  setGlobals(values: GlobalsOf<Db>, options?: Signal): Promise<void>;
  /** `GET /productInfo`, which needs no session. */
  productInfo(options?: Signal): Promise<ProductInfo>;
  /** `GET /databases`: the hosted files, asked with the client's account (Basic) when it has one, no session. */
  databases(options?: Signal): Promise<DatabaseEntry[]>;
}

const PRODUCT_INFO = ["name", "buildDate", "version", "dateFormat", "timeFormat", "timeStampFormat"] as const;

/** `runScript`, `setGlobals`, `productInfo` and `databases` of a client. */
export function databaseCalls<Db extends AnyDatabase>(session: Session, database: string, auth: Auth): DatabaseCalls<Db> {
  const base = `/databases/${segment(database)}`;
  /** A GET outside the session (no token), its errors typed and redacted as the session's are. */
  const unsigned = async (path: string, signal: AbortSignal | undefined, headers?: Record<string, string>): Promise<[Envelope, WireRequest]> => {
    const req: WireRequest = { method: "GET", path, headers, signal };
    return [await session.send(req), req];
  };
  const { username, password, apiKey } = auth as { username?: string; password?: string; apiKey?: string };
  const key = apiKey ? { authorization: `Bearer ${apiKey}` } : undefined;
  return {
    async runScript(layout, name, options = {}) {
      const layoutName = typeof layout === "string" ? layout : layout?.layout;
      const { param } = options;
      if (typeof layoutName !== "string" || !layoutName) throw new TypeError("runScript: layout must be a layout definition or name");
      // A definition of another database's layout is refused as fm.layout() refuses it (a name is the server's to judge).
      if (typeof layout !== "string") checkDatabase("runScript: layout", layout, database);
      if (typeof name !== "string" || !name) throw new TypeError(`runScript: name must be a script name, got ${describe(name)}`);
      if (param !== undefined && typeof param !== "string") throw new TypeError(`runScript: param must be a string, got ${describe(param)}`);
      const path = `${base}/layouts/${segment(layoutName, "runScript: layout")}/script/${segment(name, "runScript: script")}${param === undefined ? "" : `?script.param=${encodeURIComponent(param)}`}`;
      const req = { method: "GET", path } as const;
      // A script may change data: never sent twice.
      const envelope = await session.call(() => req, { idempotent: false, signal: options.signal });
      return scriptsIn(envelope.response, { script: name }, (what) => {
        throw broken(envelope, req, what);
      }).after!;
    },

    async setGlobals(values, options = {}) {
      if (!isObject(values)) throw new TypeError("setGlobals: values must be an object of TO::field names to values");
      const globalFields: Record<string, string> = {};
      for (const [field, value] of Object.entries(values as Record<string, unknown>)) {
        if (value === undefined) continue;
        if (typeof value !== "string" && !(typeof value === "number" && Number.isFinite(value))) {
          throw new TypeError(`setGlobals: field "${field}": ${describe(value)} is not a string or a finite number`);
        }
        setOwn(globalFields, field, typeof value === "number" ? decimal(value) : value);
      }
      const req = { method: "PATCH", path: `${base}/globals`, headers: { "content-type": "application/json" }, body: JSON.stringify({ globalFields }) } as const;
      // Setting the same values again changes nothing: safe to send again after a network fault.
      await session.call(() => req, { idempotent: true, signal: options.signal });
    },

    async productInfo(options = {}) {
      const [envelope, req] = await unsigned("/productInfo", options.signal, key);
      const info = envelope.response.productInfo as Record<string, unknown> | undefined;
      for (const member of PRODUCT_INFO) {
        if (typeof info?.[member] !== "string") throw broken(envelope, req, `response.productInfo.${member} is not a string`);
      }
      return info as unknown as ProductInfo;
    },

    async databases(options = {}) {
      // Basic of the client's account, as the session's login sends it.
      const basic = username === undefined ? key : basicAuth(username, password!);
      const [envelope, req] = await unsigned("/databases", options.signal, basic);
      const list = envelope.response.databases;
      if (!Array.isArray(list)) throw broken(envelope, req, "response.databases is not an array");
      return list.map((entry: { name?: unknown } | null, i) => {
        if (typeof entry?.name !== "string") throw broken(envelope, req, `response.databases[${i}].name is not a string`);
        return { name: entry.name };
      });
    },
  };
}
