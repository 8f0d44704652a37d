import { XMLParser, XMLValidator } from "fast-xml-parser";

/**
 * A safe reader of `$metadata`'s CSDL XML into a plain element tree, with fast-xml-parser (a dependency of the CLI
 * only; the runtime never parses XML). `$metadata` never has a DTD, so any `<!DOCTYPE` is refused before parsing: no
 * entity of a DTD is ever declared, let alone expanded (no billion laughs, no external entities). The parser's own
 * entity processing is off; this module decodes the five predefined entities and character references itself and
 * refuses any other `&name;`. Input past MAX_METADATA_BYTES is refused by the caller before it is read whole.
 *
 * Values are never trimmed or otherwise normalised beyond what XML 1.0 itself does: a name is the server's exactly,
 * whitespace at its edges (a space, NBSP, U+3000) included, or a call naming it would name a field the server does
 * not have. XML's own attribute-value normalisation (3.3.3) is applied: a literal tab, newline or return in an
 * attribute reads as a space, and only a character reference (`&#9;`) is that character.
 */

/** A `$metadata` document larger than this is refused (a real one of 1,000 tables is a few MiB). */
export const MAX_METADATA_BYTES = 64 * 1024 * 1024;

export interface XmlElement {
  /** The element's name with its prefix, as written (`edmx:Edmx`, `EntityType`). */
  readonly name: string;
  /** Its attributes, entities decoded; a map, so that no name (`__proto__`) reaches an object's prototype. */
  readonly attrs: ReadonlyMap<string, string>;
  readonly children: readonly XmlElement[];
  /** Its own text (entities decoded, untrimmed), as `<EnumMember>` holds a value. */
  readonly text: string;
}

/** The document is not well-formed XML, or is XML that `$metadata` never is; the message says what and where. */
export class XmlReadError extends Error {}

const PREDEFINED: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const XML_CHAR = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]$/u;

/** Text with XML's predefined entities and character references decoded; any other entity is an error. */
export function decodeEntities(raw: string): string {
  if (!raw.includes("&")) return raw;
  return raw.replace(/&([^;&\s]{0,32});|&/g, (whole, entity: string | undefined) => {
    if (entity === undefined) throw new XmlReadError(`a bare "&" (not an entity) in ${JSON.stringify(raw.slice(0, 80))}`);
    const named = Object.hasOwn(PREDEFINED, entity) ? PREDEFINED[entity] : undefined;
    if (named !== undefined) return named;
    const number = /^#(?:x([0-9A-Fa-f]{1,6})|([0-9]{1,7}))$/.exec(entity);
    if (!number) throw new XmlReadError(`the entity ${whole} is not one XML defines (a DTD's entities are never read)`);
    const code = number[1] !== undefined ? parseInt(number[1], 16) : Number(number[2]);
    const char = code <= 0x10ffff ? String.fromCodePoint(code) : "";
    if (!XML_CHAR.test(char)) throw new XmlReadError(`the character reference ${whole} is not a character XML 1.0 allows`);
    return char;
  });
}

type Node = Record<string, unknown>;

/** Parses `text` (already bounded in size) into its root element. */
export function readXml(text: string): XmlElement {
  const start = text.replace(/^\ufeff/, "").trimStart();
  if (!start.startsWith("<")) throw new XmlReadError(`it does not start with "<" but with ${JSON.stringify(start.slice(0, 40))}`);
  if (/<!DOCTYPE/i.test(text)) throw new XmlReadError("it has a document type declaration (<!DOCTYPE ...>), which $metadata never has; it is refused unread (no DTD or entity of one is processed)");
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (valid !== true) throw new XmlReadError(`${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
  let nodes: Node[];
  try {
    nodes = new XMLParser({
      preserveOrder: true,
      ignoreAttributes: false,
      attributeNamePrefix: "",
      allowBooleanAttributes: false,
      parseAttributeValue: false,
      parseTagValue: false,
      processEntities: false,
      htmlEntities: false,
      ignoreDeclaration: true,
      ignorePiTags: true,
      trimValues: false,
      maxNestedTags: 64,
    }).parse(text) as Node[];
  } catch (error) {
    throw new XmlReadError((error as Error).message);
  }
  const roots = nodes.map(element).filter((e): e is XmlElement => e !== undefined);
  if (roots.length !== 1) throw new XmlReadError(`it has ${roots.length} root elements, not one`);
  return roots[0]!;
}

/** One node of the parser's ordered output: an element, or undefined for text and comments. */
function element(node: Node): XmlElement | undefined {
  const name = Object.keys(node).find((key) => key !== ":@");
  if (name === undefined || name === "#text" || name === "#comment" || name.startsWith("?")) return undefined;
  const attrs = new Map<string, string>();
  const raw = node[":@"] as Record<string, unknown> | undefined;
  if (raw) for (const key of Object.keys(raw)) attrs.set(key, decodeEntities(normalizeAttribute(String(raw[key]))));
  const content = (node[name] as Node[] | undefined) ?? [];
  const children = content.map(element).filter((e): e is XmlElement => e !== undefined);
  const text = content.map((c) => (typeof c["#text"] === "string" ? decodeEntities(c["#text"]) : "")).join("");
  return { name, attrs, children, text };
}

/** XML 1.0 3.3.3 for an attribute of no declared type (CSDL has no DTD): each literal tab, newline or return is a space. */
function normalizeAttribute(raw: string): string {
  return raw.replace(/\r\n|[\t\n\r]/g, " ");
}

/** The element's name without its namespace prefix (`edmx:Edmx` -> `Edmx`). */
export function localName(element: XmlElement): string {
  return element.name.slice(element.name.indexOf(":") + 1);
}

export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child) => localName(child) === name);
}
