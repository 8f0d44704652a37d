import { z } from "zod";
import { broken, pageIn } from "./answer-shape.js";
import { FileMakerError } from "./errors.js";
import { listQuery, type DataInfo } from "./layout-client.js";
import { setOwn } from "./own.js";
import type { Session } from "./session.js";
import { segment } from "./transport.js";

/**
 * What a server says about its layouts, read through the client's shared session (so logins, the 952
 * re-login and typed errors are the same as for record calls). For tools that inspect layouts they have no
 * definition for, such as `fmgen pull`; apps use `fm.layout(Definition)`.
 */

/** One layout of the file; folders of the server's list are flattened, in order. */
export interface LayoutEntry {
  name: string;
  /** The layout's table occurrence, when the server says (FileMaker Server 19 and later do). */
  table?: string;
}

/** One field of `fieldMetaData` (FileMaker Server's shape; fields a server leaves out get their defaults). */
export interface FieldMetadata {
  name: string;
  /** `normal`, `calculation` or `summary`. */
  type: string;
  /** `text`, `number`, `date`, `time`, `timeStamp` or `container`. */
  result: string;
  global: boolean;
  autoEnter: boolean;
  maxRepeat: number;
  notEmpty: boolean;
  /** Name of the field's value list in `valueLists`. */
  valueList?: string;
  displayType?: string;
  [key: string]: unknown;
}

export interface ValueListMetadata {
  name: string;
  /** `customList` or `byField`. */
  type: string;
  values: { value: string; displayValue: string }[];
}

export interface LayoutMetadata {
  fieldMetaData: FieldMetadata[];
  /** Portal object name -> its fields, each named `TableOccurrence::Field`. */
  portalMetaData: Record<string, FieldMetadata[]>;
  valueLists: ValueListMetadata[];
  /** The layout's table occurrence, when the server says. */
  table?: string;
}

/** A record exactly as it travels: wire values, repetitions as `F(n)`, nothing decoded. */
export interface WireRecord {
  recordId: string;
  modId: string;
  fieldData: Record<string, unknown>;
  portalData: Record<string, Record<string, unknown>[]>;
}

export interface MetadataCalls {
  /** `GET /databases/{database}/layouts`: every layout of the file. */
  layouts(options?: { signal?: AbortSignal }): Promise<LayoutEntry[]>;
  /** `GET /databases/{database}/layouts/{layout}`: fields, portals and value lists. */
  layoutMetadata(layout: string, options?: { signal?: AbortSignal }): Promise<LayoutMetadata>;
  /** The list call, undecoded; no record (code 101) is an empty page, as for `list`. */
  wireRecords(layout: string, options?: { offset?: number; limit?: number; signal?: AbortSignal }): Promise<{ data: WireRecord[]; dataInfo?: DataInfo }>;
}

const fieldMetadata = z.looseObject({
  name: z.string(),
  type: z.string().default("normal"),
  result: z.string().default("text"),
  global: z.boolean().default(false),
  autoEnter: z.boolean().default(false),
  maxRepeat: z.number().int().min(1).default(1),
  notEmpty: z.boolean().default(false),
  valueList: z.string().optional(),
  displayType: z.string().optional(),
});

/** `z.record` keeping every key: zod's own drops a portal named `__proto__`. */
function namedRecord<T extends z.ZodType>(values: T) {
  return z.custom<object>((value) => typeof value === "object" && value !== null && !Array.isArray(value), "expected an object").transform((value, ctx) => {
    const out: Record<string, z.output<T>> = {};
    for (const [name, raw] of Object.entries(value)) {
      const parsed = values.safeParse(raw);
      if (parsed.success) setOwn(out, name, parsed.data);
      else for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: [name, ...issue.path] });
    }
    return out;
  });
}

const layoutMetadataSchema = z.object({
  fieldMetaData: z.array(fieldMetadata),
  portalMetaData: namedRecord(z.array(fieldMetadata)).default({}),
  valueLists: z
    .array(z.looseObject({ name: z.string(), type: z.string().default("customList"), values: z.array(z.looseObject({ value: z.string(), displayValue: z.string() })).default([]) }))
    .default([]),
  table: z.string().optional(),
});

interface ListEntry {
  name?: unknown;
  table?: unknown;
  isFolder?: unknown;
  folderLayoutNames?: unknown;
}

export function metadataCalls(session: Session, database: string): MetadataCalls {
  const base = `/databases/${segment(database)}/layouts`;
  const read = (signal: AbortSignal | undefined) => ({ idempotent: true, signal });
  return {
    async layouts(options = {}) {
      const req = { method: "GET", path: base } as const;
      const envelope = await session.call(() => req, read(options.signal));
      const out: LayoutEntry[] = [];
      const walk = (entries: unknown) => {
        if (!Array.isArray(entries)) throw broken(envelope, req, "response.layouts (or a folder's folderLayoutNames) is not an array");
        for (const entry of entries as (ListEntry | null)[]) {
          if (typeof entry?.name !== "string") throw broken(envelope, req, "a layout or folder has no name");
          if (entry.isFolder === true) walk(entry.folderLayoutNames);
          else out.push(typeof entry.table === "string" && entry.table ? { name: entry.name, table: entry.table } : { name: entry.name });
        }
      };
      walk(envelope.response.layouts);
      return out;
    },
    async layoutMetadata(layout, options = {}) {
      const req = { method: "GET", path: `${base}/${segment(layout)}` } as const;
      const envelope = await session.call(() => req, read(options.signal));
      const parsed = layoutMetadataSchema.safeParse(envelope.response);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        // The path holds the server's names (of portals): redacted like every error the session makes.
        throw session.redact(broken(envelope, req, `the layout metadata has an unexpected shape at ${issue.path.join(".") || "response"}: ${issue.message}`));
      }
      return parsed.data as LayoutMetadata;
    },
    async wireRecords(layout, options = {}) {
      const req = { method: "GET", path: `${base}/${segment(layout)}/records${listQuery(options)}` } as const;
      try {
        const response = pageIn(await session.call(() => req, read(options.signal)), req);
        return {
          data: (response.data as WireRecord[]).map((r) => ({ recordId: r.recordId, modId: r.modId, fieldData: r.fieldData, portalData: r.portalData ?? {} })),
          dataInfo: response.dataInfo as DataInfo,
        };
      } catch (error) {
        if (error instanceof FileMakerError && error.code === "101") return { data: [] };
        throw error;
      }
    },
  };
}
