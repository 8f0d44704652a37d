import type { TypeAliasDeclarationStructure, VariableStatementStructure } from "ts-morph";
import type { LayoutPlan, PortalPlan } from "../plan.js";
import type { FillRole } from "../template.js";

/** What an emitter of a `@fill` declaration of the template is given. */
export interface FillContext {
  plan: LayoutPlan;
  /** The portal, for the per-portal roles. */
  portal: PortalPlan | undefined;
  /** The planned name of the declaration being filled. */
  name: string;
  /** The planned name of the declaration another role fills (per-portal roles need the portal). */
  nameOf: (role: FillRole, portal?: PortalPlan) => string;
  /** Whether clients validate this layout's records (the config's options.validateRecords). */
  validateRecords: boolean;
  /** The definition's call, from the template with names filled in. */
  definitionCall: { callee: string; typeArguments: readonly string[] };
}

/** A filled declaration, and the runtime imports it uses beyond those in template text. */
export interface Filled {
  statement: TypeAliasDeclarationStructure | VariableStatementStructure;
  runtimeNames?: readonly string[];
}

export type Filler = (context: FillContext) => Filled;
