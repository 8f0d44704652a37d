// Hosted models for the `$metadata` tests, built the way the emulator builds them (layout descriptions → model),
// and a reading of CSDL XML into the JSON CSDL shape, so both forms can be compared in substance.

import { buildModel, type DatabaseModel } from "../../../src/emulator/hosted-file/model.js";
import { parseLayoutDescription } from "../../../src/layout/load.js";
import type { LayoutDescriptionInput } from "../../../src/layout/schema.js";
import { child, parseXml, type XmlElement } from "./metadata-xml-reader.js";

/** The database model of these layout descriptions (one database). */
export function modelOf(layouts: readonly unknown[]): DatabaseModel {
  const models = buildModel(layouts.map((l, i) => parseLayoutDescription(l, `layout #${i}`)));
  if (models.size !== 1) throw new Error(`expected one database, got ${models.size}`);
  return [...models.values()][0]!;
}

export const contactsLayout: LayoutDescriptionInput = {
  database: "Shop",
  layout: "Contact Details",
  table: "Contacts",
  fields: [
    { name: "id", type: "text", required: true, unique: true, autoEnter: "uuid", readOnly: true },
    { name: "First Name", type: "text" },
    { name: "Age", type: "number" },
    { name: "Born", type: "date" },
    { name: "Alarm", type: "time" },
    { name: "Created", type: "timestamp", autoEnter: "creationTimestamp", readOnly: true },
    { name: "Modified", type: "timestamp", autoEnter: "modificationTimestamp" },
    { name: "Photo", type: "container" },
    { name: "Phones", type: "text", repetitions: 3 },
    { name: "Full Name", type: "text", readOnly: true },
    { name: "Search", type: "text", global: true },
    { name: "Email", type: "text", required: true },
    { name: "Invoices::Amount", type: "number" },
  ],
  portals: [
    {
      name: "Invoices",
      table: "Invoices",
      relation: { parentField: "id", childField: "ContactID" },
      fields: [
        { name: "Invoices::Amount", type: "number" },
        { name: "Invoices::ContactID", type: "text" },
      ],
    },
  ],
};

export const notesLayout: LayoutDescriptionInput = {
  database: "Shop",
  layout: "Notes",
  table: "Notes",
  fields: [{ name: "Text", type: "text" }, { name: "Serial", type: "number", autoEnter: "serial" }],
};

const FM = "com.filemaker.odata.";
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
const obj = (): Record<string, Json> => Object.create(null) as Record<string, Json>;
const children = (e: XmlElement, name: string) => e.children.filter((c) => c.name === name);

function annotationValue(a: XmlElement): Json {
  if (a.attrs.String !== undefined) return a.attrs.String;
  if (a.attrs.Bool !== undefined) return a.attrs.Bool === "true";
  if (a.attrs.Int !== undefined) return Number(a.attrs.Int);
  const enumMember = child(a, "EnumMember");
  if (a.attrs.Term === "Org.OData.Core.V1.Permissions") return enumMember!.text.replace("/", "@");
  if (enumMember) return enumMember.text;
  const collection = child(a, "Collection");
  if (collection) return collection.children.map((c) => c.text);
  const rec = child(a, "Record");
  if (rec) {
    const out = obj();
    for (const pv of children(rec, "PropertyValue")) out[pv.attrs.Property!] = pv.attrs.Bool !== undefined ? pv.attrs.Bool === "true" : child(pv, "Collection")!.children.map((c) => c.text);
    return out;
  }
  throw new Error(`annotation ${a.attrs.Term} has no value`);
}

/** JSON CSDL leaves out members whose names it would read as keywords or annotations (metadata-json.ts). */
const reserved = (name: string) => name.startsWith("$") || name.startsWith("@");
const term = (t: string) => `@${t.startsWith(FM) ? t.slice(FM.length) : t}`;

/** CSDL XML read into the JSON CSDL shape of metadata-json.ts (1.6), from the XML alone. */
export function xmlAsJsonCsdl(xml: string): Record<string, Json> {
  const edmx = parseXml(xml);
  if (edmx.name !== "edmx:Edmx" || edmx.attrs["xmlns:edmx"] !== "http://docs.oasis-open.org/odata/ns/edmx") throw new Error("not an edmx:Edmx root");
  const schemaEl = child(child(edmx, "edmx:DataServices")!, "Schema")!;
  if (schemaEl.attrs.xmlns !== "http://docs.oasis-open.org/odata/ns/edm") throw new Error("Schema without the edm namespace");
  const namespace = schemaEl.attrs.Namespace!;
  const db = namespace.slice(FM.length);
  const out = obj();
  out.$Version = edmx.attrs.Version!;
  const schema = obj();
  for (const a of children(schemaEl, "Annotation")) {
    if (a.attrs.Term === "ServerVersion") out["@ServerVersion"] = a.attrs.String!;
    else schema[term(a.attrs.Term!)] = annotationValue(a);
  }
  const local = (type: string) => type.replace(`${namespace}.`, `${db}.`);
  for (const t of children(schemaEl, "EntityType")) {
    const et = obj();
    et.$Kind = "EntityType";
    for (const a of children(t, "Annotation")) if (a.attrs.Term === `${FM}TableID`) et["@TableID"] = a.attrs.String!;
    const key = child(t, "Key");
    if (key) et.$Key = children(key, "PropertyRef").map((r) => r.attrs.Name!);
    for (const p of children(t, "Property")) {
      const prop = obj();
      const annotations = children(p, "Annotation");
      const fieldId = annotations.find((a) => a.attrs.Term === `${FM}FieldID`);
      if (fieldId) prop["@FieldID"] = fieldId.attrs.String!;
      prop.$Nullable = p.attrs.Nullable !== "false";
      if (p.attrs.DefaultValue !== undefined) prop.$DefaultValue = p.attrs.DefaultValue;
      for (const a of annotations) if (a !== fieldId) prop[term(a.attrs.Term!)] = annotationValue(a);
      prop.$Type = p.attrs.Type!;
      if (!reserved(p.attrs.Name!)) et[p.attrs.Name!] = prop;
    }
    for (const a of children(t, "Annotation")) if (a.attrs.Term !== `${FM}TableID`) et[term(a.attrs.Term!)] = annotationValue(a);
    for (const n of children(t, "NavigationProperty")) {
      const m = /^Collection\((.*)\)$/.exec(n.attrs.Type!);
      if (!reserved(n.attrs.Name!)) et[n.attrs.Name!] = { $Kind: "NavigationProperty", $Collection: true, $Type: local(m![1]!) };
    }
    if (!reserved(t.attrs.Name!)) schema[t.attrs.Name!] = et;
  }
  const container = child(schemaEl, "EntityContainer")!;
  if (container.attrs.Name !== db) throw new Error(`EntityContainer "${container.attrs.Name}" is not the database "${db}"`);
  for (const s of children(container, "EntitySet")) {
    const set = obj();
    set.$Kind = "EntitySet";
    set.$Type = local(s.attrs.EntityType!);
    for (const a of children(s, "Annotation")) set[term(a.attrs.Term!)] = annotationValue(a);
    const bindings = children(s, "NavigationPropertyBinding");
    if (bindings.length > 0) {
      const b = obj();
      for (const nb of bindings) if (!reserved(nb.attrs.Path!)) b[nb.attrs.Path!] = nb.attrs.Target!;
      set.$NavigationPropertyBinding = b;
    }
    if (!reserved(s.attrs.Name!) && !(s.attrs.Name! in schema)) schema[s.attrs.Name!] = set;
  }
  const tail = child(schemaEl, "Annotations");
  if (tail && tail.attrs.Target !== namespace) throw new Error("Annotations target another namespace");
  for (const a of tail ? children(tail, "Annotation") : []) schema[term(a.attrs.Term!)] = annotationValue(a);
  out[db] = schema;
  return out;
}
