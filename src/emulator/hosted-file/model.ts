import type { LayoutDescription } from "../../layout/description.js";
import { NameMap } from "./name-map.js";
import { namedValueLists } from "../../layout/value-lists.js";
import type { AutoEnter, FieldDescription, FieldType, ValidateWhen } from "../../layout/schema.js";
/**
 * A field the file computes on every read and never stores (calculations.ts): a calculation given as a JavaScript
 * function, or a related field outside a portal, joined through a relation to its first related record. Its table's
 * data computes it (TableData.compute).
 */
export interface ComputedField {
  kind: "calculation" | "related";
  /** What computes it, for messages: `a calculation` or `the relation Invoices::CustomerID = Customers::id`. */
  describe: string;
}

/** A field of a table as the emulator stores it. */
export interface TableField {
  name: string;
  type: FieldType;
  repetitions: number;
  readOnly: boolean;
  required: boolean;
  unique: boolean;
  /** When `required` and `unique` apply (entry-options.ts, `appliesValidation`). */
  validate: ValidateWhen;
  global: boolean;
  autoEnter?: AutoEnter;
  valueList?: readonly string[];
  /** Where this field was declared, to name both sides of a conflict. */
  declaredIn: string;
  /** Set when the file computes the field on every read (calculations.ts); its stored values are never read. */
  computed?: ComputedField;
  /** The FMFID's number a table description pins (described-tables.ts); absent: `$metadata` computes one. */
  fieldId?: number;
  /** Most characters a text field holds (validation 511): a table description's `maxLength` (`MaxLength` in
   * `$metadata`) or a `VARCHAR(n)` of a schema change (schema-changes.ts). */
  maxLength?: number;
  /** The field's comment (a table description's `description`): `FMComment` in `$metadata`. */
  comment?: string;
}

/** What a table description (`<Name>.table.json`) says of its table beyond the fields (described-tables.ts). */
export interface DescribedTable {
  /** The description's file, for messages. */
  source: string;
  /** The FMTID's number it pins; absent: `$metadata` computes one. */
  tableId?: number;
  /** The key field's name; absent: the table occurrence has no key (rows are addressed by ROWID). */
  key?: string;
  /** The table's comment: `FMComment` in `$metadata`. */
  comment?: string;
  /** Its navigation properties, each to the table occurrence of its name; absent: those of the layouts' portals. */
  relations?: readonly string[];
  /** The match fields its relations name (`match`): the hosted file joins by them, both ways, as by a portal's relation. */
  joins?: readonly DescribedJoin[];
}

/** A described relation's match fields: `field` of the described table equals `relatedField` of `table`. */
export interface DescribedJoin {
  field: TableField;
  table: string;
  relatedField: TableField;
}

export interface TableModel {
  name: string;
  /** By field name, matched as FileMaker matches names (name-map.ts). */
  fields: NameMap<TableField>;
  /** Set when a table description describes the table: then `$metadata` states what it says. */
  described?: DescribedTable;
}

/** A field as a layout shows it: the name on the wire and the table field behind it. */
export interface LayoutField {
  wireName: string;
  field: TableField;
}

export interface PortalModel {
  name: string;
  table: TableModel;
  relation?: { parentField: TableField; childField: TableField; cascadeDelete: boolean };
  fields: NameMap<LayoutField>;
}

export interface LayoutModel {
  description: LayoutDescription;
  table: TableModel;
  fields: NameMap<LayoutField>;
  portals: PortalModel[];
}

export interface DatabaseModel {
  name: string;
  tables: NameMap<TableModel>;
  layouts: NameMap<LayoutModel>;
}

/** Builds every database, table and layout the descriptions name; throws on contradictions. */
export function buildModel(descriptions: readonly LayoutDescription[]): NameMap<DatabaseModel> {
  const databases = new NameMap<DatabaseModel>();
  // Where each database and table was first named, for a spelling that differs only by case (sameSpelling).
  const firstNamed = new Map<object, string>();
  const databaseOf = (name: string, where: string) => {
    let db = databases.get(name);
    if (!db) {
      databases.set(name, (db = { name, tables: new NameMap(), layouts: new NameMap() }));
      firstNamed.set(db, where);
    }
    sameSpelling("database", db.name, name, firstNamed.get(db)!, where);
    return db;
  };
  const tableOf = (db: DatabaseModel, name: string, where: string) => {
    let table = db.tables.get(name);
    if (!table) {
      db.tables.set(name, (table = { name, fields: new NameMap() }));
      firstNamed.set(table, where);
    }
    sameSpelling(`table of database "${db.name}"`, table.name, name, firstNamed.get(table)!, where);
    return table;
  };

  // First pass: tables and their fields, so that relations can name fields declared by any layout.
  for (const layout of descriptions) {
    const where = layout.source ?? `layout "${layout.layout}"`;
    const db = databaseOf(layout.database, where);
    const described = db.layouts.get(layout.layout);
    if (described?.description.layout === layout.layout) {
      throw new Error(`layout "${layout.layout}" of database "${layout.database}" is described twice (${where})`);
    }
    if (described) sameSpelling(`layout of database "${db.name}"`, described.description.layout, layout.layout, described.description.source ?? `layout "${described.description.layout}"`, where);
    const table = tableOf(db, layout.table, where);
    // Related fields outside portals are stored on the parent record under their full name.
    for (const field of layout.fields) declareField(table, field.name, field, where);
    for (const portal of layout.portals) {
      const child = tableOf(db, portal.table, where);
      for (const field of portal.fields) declareField(child, localName(field.name), field, where);
    }
    // Claims the layout's name now, so that a second spelling of it is caught above.
    db.layouts.set(layout.layout, { description: layout, table, fields: new NameMap(), portals: [] });
  }

  for (const layout of descriptions) {
    const where = layout.source ?? `layout "${layout.layout}"`;
    const db = databaseOf(layout.database, where);
    const table = tableOf(db, layout.table, where);
    // Portals of one layout are one name to FileMaker when they differ only by case (its object names).
    const portalNames = new NameMap<string>();
    for (const portal of layout.portals) {
      const held = portalNames.get(portal.name);
      if (held !== undefined) sameSpelling(`portal of layout "${layout.layout}"`, held, portal.name, where, where);
      portalNames.set(portal.name, portal.name);
    }
    const fields = new NameMap(layout.fields.map((f) => [f.name, { wireName: f.name, field: table.fields.get(f.name)! }]));
    const portals = layout.portals.map((portal): PortalModel => {
      const child = tableOf(db, portal.table, where);
      const model: PortalModel = {
        name: portal.name,
        table: child,
        fields: new NameMap(portal.fields.map((f) => [f.name, { wireName: f.name, field: child.fields.get(localName(f.name))! }])),
      };
      if (portal.relation) {
        const { parentField, childField, cascadeDelete } = portal.relation;
        const at = `${where} portal "${portal.name}"`;
        const parent = table.fields.get(parentField) ?? implicitKey(table, parentField, child.fields.get(childField), at);
        const childKey = child.fields.get(childField) ?? implicitKey(child, childField, parent, at);
        sameSpelling(`field of table "${table.name}"`, parent.name, parentField, parent.declaredIn, at);
        sameSpelling(`field of table "${child.name}"`, childKey.name, childField, childKey.declaredIn, at);
        model.relation = { parentField: parent, childField: childKey, cascadeDelete: cascadeDelete ?? false };
      }
      return model;
    });
    db.layouts.set(layout.layout, { description: layout, table, fields, portals });
  }
  for (const db of databases.values()) {
    const { conflicts } = namedValueLists([...db.layouts.values()].map((layout) => layout.description));
    if (conflicts.length) throw new Error(`database "${db.name}": ${conflicts.join("; ")}`);
  }
  return databases;
}

/**
 * Refuses a name spelled here otherwise than where it was first named, differing only by case: FileMaker matches
 * names without regard to case, so both spellings name one thing, and the descriptions would disagree on how its
 * name is written (which answers show). `what` says what is named ("field of table \"Contacts\"").
 */
export function sameSpelling(what: string, held: string, given: string, heldWhere: string, givenWhere: string): void {
  if (held === given) return;
  throw new Error(
    `${givenWhere} names the ${what} "${given}", which ${heldWhere} names "${held}": FileMaker matches names without regard to case, ` +
      "so both name one thing; spell it the same in every description (as FileMaker shows it)",
  );
}

/** `Invoices::Amount` -> `Amount`: portal rows live in their own table under local names. */
export function localName(name: string): string {
  const at = name.indexOf("::");
  return at === -1 ? name : name.slice(at + 2);
}

function declareField(table: TableModel, name: string, field: FieldDescription, where: string): void {
  const next: TableField = {
    name,
    type: field.type,
    repetitions: field.repetitions ?? 1,
    readOnly: field.readOnly ?? false,
    required: field.required ?? false,
    unique: field.unique ?? false,
    validate: field.validate ?? "dataEntry",
    global: field.global ?? false,
    declaredIn: where,
    ...(field.autoEnter ? { autoEnter: field.autoEnter } : {}),
    ...(field.valueList ? { valueList: field.valueList } : {}),
  };
  const existing = table.fields.get(name);
  if (!existing) {
    table.fields.set(name, next);
    return;
  }
  sameSpelling(`field of table "${table.name}"`, existing.name, name, existing.declaredIn, where);
  if (existing.type !== next.type || existing.repetitions !== next.repetitions) {
    throw new Error(
      `field "${name}" of table "${table.name}" is ${existing.type} x${existing.repetitions} in ${existing.declaredIn} ` +
        `but ${next.type} x${next.repetitions} in ${where}`,
    );
  }
  // The same field on several layouts: validation options accumulate.
  existing.readOnly ||= next.readOnly;
  existing.required ||= next.required;
  existing.unique ||= next.unique;
  if (next.validate === "always") existing.validate = "always";
  existing.global ||= next.global;
  if (!existing.autoEnter && next.autoEnter) existing.autoEnter = next.autoEnter;
  if (!existing.valueList && next.valueList) existing.valueList = next.valueList;
}

/** A relation key no layout shows: stored like its counterpart (text when neither is declared). */
function implicitKey(table: TableModel, name: string, counterpart: TableField | undefined, where: string): TableField {
  const field: TableField = {
    name,
    type: counterpart?.type === "number" ? "number" : "text",
    repetitions: 1,
    readOnly: false,
    required: false,
    unique: false,
    validate: "dataEntry",
    global: false,
    declaredIn: where,
  };
  table.fields.set(name, field);
  return field;
}
