import type { LayoutDescription } from "../../layout/description.js";
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
  fields: Map<string, TableField>;
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
  fields: Map<string, LayoutField>;
}

export interface LayoutModel {
  description: LayoutDescription;
  table: TableModel;
  fields: Map<string, LayoutField>;
  portals: PortalModel[];
}

export interface DatabaseModel {
  name: string;
  tables: Map<string, TableModel>;
  layouts: Map<string, LayoutModel>;
}

/** Builds every database, table and layout the descriptions name; throws on contradictions. */
export function buildModel(descriptions: readonly LayoutDescription[]): Map<string, DatabaseModel> {
  const databases = new Map<string, DatabaseModel>();
  const databaseOf = (name: string) => {
    let db = databases.get(name);
    if (!db) databases.set(name, (db = { name, tables: new Map(), layouts: new Map() }));
    return db;
  };
  const tableOf = (db: DatabaseModel, name: string) => {
    let table = db.tables.get(name);
    if (!table) db.tables.set(name, (table = { name, fields: new Map() }));
    return table;
  };

  // First pass: tables and their fields, so that relations can name fields declared by any layout.
  for (const layout of descriptions) {
    const db = databaseOf(layout.database);
    const where = layout.source ?? `layout "${layout.layout}"`;
    if (db.layouts.has(layout.layout)) {
      throw new Error(`layout "${layout.layout}" of database "${layout.database}" is described twice (${where})`);
    }
    const table = tableOf(db, layout.table);
    // Related fields outside portals are stored on the parent record under their full name.
    for (const field of layout.fields) declareField(table, field.name, field, where);
    for (const portal of layout.portals) {
      const child = tableOf(db, portal.table);
      for (const field of portal.fields) declareField(child, localName(field.name), field, where);
    }
  }

  for (const layout of descriptions) {
    const db = databaseOf(layout.database);
    const table = tableOf(db, layout.table);
    const fields = new Map(layout.fields.map((f) => [f.name, { wireName: f.name, field: table.fields.get(f.name)! }]));
    const portals = layout.portals.map((portal): PortalModel => {
      const child = tableOf(db, portal.table);
      const model: PortalModel = {
        name: portal.name,
        table: child,
        fields: new Map(portal.fields.map((f) => [f.name, { wireName: f.name, field: child.fields.get(localName(f.name))! }])),
      };
      if (portal.relation) {
        const { parentField, childField, cascadeDelete } = portal.relation;
        const where = `${layout.source ?? `layout "${layout.layout}"`} portal "${portal.name}"`;
        const parent = table.fields.get(parentField) ?? implicitKey(table, parentField, child.fields.get(childField), where);
        const childKey = child.fields.get(childField) ?? implicitKey(child, childField, parent, where);
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
