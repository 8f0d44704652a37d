// A strict little XML reader for the tests of `$metadata`: it refuses what is not well-formed XML 1.0 (unbalanced or
// misnested tags, unquoted or duplicate attributes, a raw `<` or a bare `&` in text or attributes, unknown entities,
// characters XML cannot carry, a second root, anything after the root) and gives back the element tree.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (entities decoded), trimmed. */
  text: string;
}

const NAME = /[A-Za-z_][\w.:-]*/y;
const ILLEGAL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function decode(raw: string, at: number): string {
  if (raw.includes("<")) throw new Error(`raw "<" at ${at}`);
  return raw.replace(/&([^;]*);|&/g, (whole, entity: string | undefined) => {
    if (entity === undefined) throw new Error(`bare "&" at ${at}`);
    const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
    if (entity in named) return named[entity]!;
    const m = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(entity);
    if (!m) throw new Error(`unknown entity "${whole}" at ${at}`);
    const code = m[1] !== undefined ? parseInt(m[1], 16) : Number(m[2]);
    const char = String.fromCodePoint(code);
    if (ILLEGAL.test(char)) throw new Error(`character reference ${whole} is not allowed in XML 1.0 at ${at}`);
    return char;
  });
}

export function parseXml(xml: string): XmlElement {
  const bad = ILLEGAL.exec(xml);
  if (bad) throw new Error(`character U+${bad[0].charCodeAt(0).toString(16)} at ${bad.index} is not allowed in XML 1.0`);
  let i = 0;
  const decl = /^<\?xml version="1\.0" encoding="utf-8"\?>/.exec(xml);
  if (decl) i = decl[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const name = (): string => {
    NAME.lastIndex = i;
    const m = NAME.exec(xml);
    if (!m) throw new Error(`expected a name at ${i}: ${JSON.stringify(xml.slice(i, i + 30))}`);
    i += m[0].length;
    return m[0];
  };
  const skipSpace = () => {
    while (i < xml.length && /\s/.test(xml[i]!)) i++;
  };
  while (i < xml.length) {
    const lt = xml.indexOf("<", i);
    const text = xml.slice(i, lt === -1 ? xml.length : lt);
    if (text.trim() !== "") {
      if (stack.length === 0) throw new Error(`text outside the root at ${i}`);
      stack[stack.length - 1]!.text += decode(text, i).trim();
    } else if (text.includes("&")) decode(text, i);
    if (lt === -1) break;
    i = lt + 1;
    if (xml.startsWith("!--", i)) {
      const end = xml.indexOf("-->", i);
      if (end === -1) throw new Error(`unclosed comment at ${i}`);
      i = end + 3;
      continue;
    }
    if (xml[i] === "/") {
      i++;
      const closing = name();
      skipSpace();
      if (xml[i] !== ">") throw new Error(`expected ">" at ${i}`);
      i++;
      const open = stack.pop();
      if (!open || open.name !== closing) throw new Error(`</${closing}> closes <${open?.name ?? "nothing"}> at ${i}`);
      continue;
    }
    const element: XmlElement = { name: name(), attrs: {}, children: [], text: "" };
    if (stack.length === 0) {
      if (root) throw new Error(`a second root element <${element.name}> at ${i}`);
      root = element;
    } else stack[stack.length - 1]!.children.push(element);
    for (;;) {
      const before = i;
      skipSpace();
      if (xml.startsWith("/>", i)) {
        i += 2;
        break;
      }
      if (xml[i] === ">") {
        i++;
        stack.push(element);
        break;
      }
      if (i === before) throw new Error(`expected a space before an attribute at ${i}`);
      const attr = name();
      if (xml[i] !== "=" || xml[i + 1] !== '"') throw new Error(`attribute ${attr} is not ="quoted" at ${i}`);
      const end = xml.indexOf('"', i + 2);
      if (end === -1) throw new Error(`unclosed attribute ${attr} at ${i}`);
      if (Object.hasOwn(element.attrs, attr)) throw new Error(`duplicate attribute ${attr} at ${i}`);
      element.attrs[attr] = decode(xml.slice(i + 2, end), i);
      i = end + 1;
    }
  }
  if (stack.length > 0) throw new Error(`<${stack[stack.length - 1]!.name}> is never closed`);
  if (!root) throw new Error("no root element");
  return root;
}

export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c) => c.name === name);
}
