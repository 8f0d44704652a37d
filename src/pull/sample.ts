import type { FileMakerClient } from "@fmgen/runtime";
import { sameName } from "../layout/filemaker-names.js";
import { wireRecords, type WireRecord } from "@fmgen/runtime/metadata";
import { firstLongNumber, groupRepetitions, inferFieldType } from "./infer.js";
import type { LiveField, LiveLayout, LivePortal } from "./live.js";

/** Records per list call while sampling. */
const PAGE = 100;

/** A layout whose table holds no record: there is nothing to infer types from. */
export class EmptyLayoutError extends Error {
  constructor(readonly layout: string) {
    super(
      `layout "${layout}" shows no record (the list call answers 101), so its fields cannot be sampled: ` +
        "add a record, or pull from a server with the layout metadata endpoint",
    );
    this.name = "EmptyLayoutError";
  }
}

/**
 * Reads up to `count` records of a layout (paged list calls) and infers its fields from their wire values. The
 * layout is named as the answer's `dataInfo.layout` spells it when that is the name asked, case aside (the server
 * matched it so): the emulator names the layout by its own name there; a server that echoes the request's spelling
 * leaves the name as asked.
 */
export async function sampleLayout(fm: FileMakerClient, database: string, asked: string, count: number): Promise<LiveLayout> {
  const records: WireRecord[] = [];
  let table: string | undefined;
  let layout = asked;
  for (let offset = 1; records.length < count; ) {
    const limit = Math.min(PAGE, count - records.length);
    const page = await wireRecords(fm, asked, { offset, limit });
    table ??= page.dataInfo?.table || undefined;
    const spelled = page.dataInfo?.layout;
    if (offset === 1 && typeof spelled === "string" && spelled !== asked && sameName(spelled, asked)) layout = spelled;
    records.push(...page.data);
    if (page.data.length < limit) break;
    offset += page.data.length;
  }
  if (records.length === 0) throw new EmptyLayoutError(asked);
  return { ...inferLayout(database, layout, records), ...(table ? { table } : {}) };
}

/** The pure part of sampling: fields, repetitions, portals and types from wire records. */
export function inferLayout(database: string, layout: string, records: readonly WireRecord[]): LiveLayout {
  const notes: string[] = [];
  const fields = inferFields(records.map((r) => r.fieldData), "sampled record");
  const portalNames: string[] = [];
  for (const record of records) for (const name of Object.keys(record.portalData)) if (!portalNames.includes(name)) portalNames.push(name);
  const portals: LivePortal[] = portalNames.map((name) => {
    // A record without this portal has none of its rows, even when the name is "__proto__" or "constructor".
    const rows = records.flatMap((r) => (Object.hasOwn(r.portalData, name) ? (r.portalData[name] ?? []) : []));
    // Row ids travel beside the fields; portal fields always carry their `TO::` prefix.
    const fieldRows = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => key.includes("::"))));
    if (rows.length === 0) {
      notes.push(`portal "${name}": no row in the ${records.length} sampled records, so its fields are unknown; the file's are kept`);
      return { name, fields: [], fieldsUnknown: true };
    }
    return { name, fields: inferFields(fieldRows, "portal row") };
  });
  return { database, layout, source: "sample", fields, portals, sampled: records.length, notes };
}

function inferFields(rows: readonly Record<string, unknown>[], unit: string): LiveField[] {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (!seen.has(key)) keys.push(key);
      seen.add(key);
    }
  }
  return [...groupRepetitions(keys)].map(([name, group]) => {
    const values = rows.flatMap((row) => group.keys.filter((k) => Object.hasOwn(row, k)).map((k) => row[k]));
    const inferred = inferFieldType(values);
    const long = firstLongNumber(values);
    if (inferred.confidence === "low") inferred.reason = `seen only empty in ${rows.length} ${unit}${rows.length === 1 ? "" : "s"}`;
    return {
      name,
      type: inferred.type,
      repetitions: group.repetitions,
      confidence: inferred.confidence,
      ...(inferred.reason ? { reason: inferred.reason } : {}),
      samples: values.filter((v) => v !== ""),
      ...(long ? { longNumber: long } : {}),
    };
  });
}
