// A TypeDoc plugin of typedoc.json's: every public export of the entries, and every member a user calls or sets,
// has a doc comment. It warns for each that has none (`npm run docs` fails, typedoc.json treating validation
// warnings as errors; test/docs/reference.test.ts too). TypeDoc's own `validation.notDocumented` would also ask for
// a comment on each property of an anonymous type (the `{ recordId, modId }` a create resolves to, an option's
// `{ min, max }`), which the comment of what holds it already describes; here such properties are exempt, except
// those of an exported constant (the helpers of `q` and `f`, which users call one by one).
import { Application, ReflectionKind } from "typedoc";
import { relative } from "node:path";

const REQUIRED =
  ReflectionKind.Function |
  ReflectionKind.Class |
  ReflectionKind.Interface |
  ReflectionKind.TypeAlias |
  ReflectionKind.Variable |
  ReflectionKind.Enum |
  ReflectionKind.EnumMember |
  ReflectionKind.Method |
  ReflectionKind.Property |
  ReflectionKind.Accessor;

/** Inside a parameter's type, or a property of an anonymous type that is not an exported constant's. */
function exempt(reflection) {
  for (let r = reflection.parent; r; r = r.parent) if (r.kindOf(ReflectionKind.Parameter)) return true;
  const owner = reflection.parent;
  return Boolean(owner?.kindOf(ReflectionKind.TypeLiteral) && !owner.parent?.kindOf(ReflectionKind.Variable));
}

/** What of `reflection` lacks a comment: itself, or (a function's, a method's) each signature without one. */
function undocumented(reflection) {
  if (reflection.hasComment()) return [];
  const signatures = reflection.signatures ?? (reflection.type?.type === "reflection" ? reflection.type.declaration.signatures : undefined) ?? [];
  const accessors = [reflection.getSignature, reflection.setSignature].filter(Boolean);
  if (reflection.kindOf(ReflectionKind.FunctionOrMethod) && signatures.length > 0) {
    return signatures.filter((s) => !s.hasComment()).map((s, i) => (signatures.length > 1 ? `${reflection.getFriendlyFullName()} (signature ${i + 1})` : reflection.getFriendlyFullName()));
  }
  if ([...signatures, ...accessors].some((s) => s.hasComment())) return [];
  return [reflection.getFriendlyFullName()];
}

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.on(Application.EVENT_VALIDATE_PROJECT, (project) => {
    for (const reflection of project.getReflectionsByKind(REQUIRED)) {
      // An inherited member has its origin's comment; the origin is checked where it is declared.
      if (!reflection.isDeclaration() || reflection.inheritedFrom || exempt(reflection)) continue;
      const file = project.getSymbolIdFromReflection(reflection)?.fileName;
      for (const name of undocumented(reflection)) {
        app.logger.validationWarning(`${name} (${ReflectionKind.singularString(reflection.kind).toLowerCase()}${file ? `, ${relative(process.cwd(), file)}` : ""}) has no doc comment`);
      }
    }
  });
}
