// A TypeDoc plugin of typedoc.json's: the reference lists names in the same order on every machine. TypeDoc sorts
// names with `localeCompare` in the process's locale, and under lt_LT (y between i and j) some come out otherwise
// than under en_US; here each run of one kind is sorted again, case-insensitively by UTF-16 code units, so that
// `npm run docs` writes the same files whatever the locale (test/docs/reference.test.ts compares them with the
// committed ones). Under tr_TR the markdown plugin's anchors still differ (it lowercases `I` to a dotless `ı`).
import { Renderer, ReflectionKind } from "typedoc";

const byName = (a, b) => {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
};

/** `list` sorted by name within each run of one kind (TypeDoc's "kind" order first is kept). */
function sorted(list) {
  const out = [];
  for (let i = 0; i < list.length; ) {
    let j = i;
    while (j < list.length && list[j].kind === list[i].kind) j++;
    out.push(...list.slice(i, j).sort(byName));
    i = j;
  }
  return out;
}

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.renderer.on(Renderer.EVENT_BEGIN, (event) => {
    const project = event.project;
    for (const reflection of [project, ...project.getReflectionsByKind(ReflectionKind.All)]) {
      if (reflection.children) reflection.children = sorted(reflection.children);
      for (const group of reflection.groups ?? []) {
        group.children = sorted(group.children);
        for (const category of group.categories ?? []) category.children = sorted(category.children);
      }
      for (const category of reflection.categories ?? []) category.children = sorted(category.children);
    }
  });
}
