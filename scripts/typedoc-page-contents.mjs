// A TypeDoc plugin of typedoc.json's: each entry's page (one page per entry, thousands of lines for
// @fmgen/runtime) opens with what the entry is for (its module comment), then a table of its exports by kind, each
// with the first sentence of its comment and a link to its section, so that a reader finds a name without scrolling.
import { ReflectionKind } from "typedoc";

/** @param {import("typedoc").Application} app */
export function load(app) {
  /** The module comment of the page being written, held back while the theme writes the page (it is written above). */
  let held;
  app.renderer.markdownHooks.on("content.begin", (context) => {
    const model = context.page.model;
    if (!model.kindOf?.(ReflectionKind.Module) || !model.groups?.length) return "";
    const comment = model.comment ? [context.partials.comment(model.comment, { headingLevel: 2 })] : [];
    held = { model, comment: model.comment };
    model.comment = undefined;
    const contents = model.groups.map((group) => `**${group.title}**\n\n${context.partials.groupIndex(group)}`);
    return [...comment, "## Contents", ...contents].join("\n\n");
  });
  app.renderer.markdownHooks.on("content.end", () => {
    if (held) held.model.comment = held.comment;
    held = undefined;
    return "";
  });
}
