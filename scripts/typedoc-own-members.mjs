// A TypeDoc plugin of typedoc.json's, for a reference that reads well and names each member's true origin:
// - members a class inherits from outside fmgen (Error's `stack`, `cause`, `captureStackTrace`...) are left out,
//   where they would repeat on every error class; members inherited from fmgen's own types stay, so an options
//   interface still lists every option it takes;
// - an inherited member says it comes from the type its owner extends. TypeDoc names the first same-named interface
//   it met instead when two entries declare one each (`ClientOptions` of the Node entry and of the fetch entry both
//   extend `CommonClientOptions`): Node's would say its `auth` is inherited from fetch's.
import { Converter, ReferenceType, ReflectionKind } from "typedoc";

const MEMBERS = ReflectionKind.Property | ReflectionKind.Method | ReflectionKind.Accessor;

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    const project = context.project;
    // Removing Error's `stack` leaves FileMakerError's subclasses' `stack` inheriting from nothing: again until none.
    for (let removed = true; removed; ) {
      removed = false;
      for (const member of project.getReflectionsByKind(MEMBERS)) {
        if (member.isDeclaration() && member.inheritedFrom && !member.inheritedFrom.reflection) {
          project.removeReflection(member);
          removed = true;
        }
      }
    }
    for (const member of project.getReflectionsByKind(MEMBERS)) {
      if (!member.isDeclaration() || !member.inheritedFrom) continue;
      const owner = member.parent;
      const bases = (owner?.isDeclaration() ? (owner.extendedTypes ?? []) : [])
        .map((type) => (type.type === "reference" ? type.reflection : undefined))
        .filter((base) => base?.isDeclaration());
      const base = bases.find((b) => b.children?.some((child) => child.name === member.name));
      const origin = base?.children?.find((child) => child.name === member.name);
      if (!base || !origin || member.inheritedFrom.reflection === origin) continue;
      member.inheritedFrom = ReferenceType.createResolvedReference(`${base.name}.${member.name}`, origin, project);
      for (const [i, signature] of (member.signatures ?? []).entries()) {
        const from = origin.signatures?.[i];
        if (signature.inheritedFrom && from) signature.inheritedFrom = ReferenceType.createResolvedReference(`${base.name}.${member.name}`, from, project);
      }
    }
  });
}
