// The webhook paths (docs/emulator.md, "Webhooks"): `Webhook.Add`, `Webhook.GetAll`, `Webhook.Get(n)`,
// `Webhook.Delete(n)`, `Webhook.Invoke(n)`, answered from plain values (so a `$batch` part can be answered too).

import type { HostedDatabase } from "../hosted-file/store.js";
import type { Annotations, Body } from "./entity-read.js";
import { findSet } from "./entity-sets.js";
import { ODataError } from "./odata-error.js";
import type { QueryOptions } from "./query-options.js";
import { formatODataPath } from "./url-format.js";
import type { WebhookOperation } from "./url-path.js";
import { badBody, parseInvokeBody, parseJsonObject, parseWebhookAdd } from "./webhook-add.js";
import type { WebhookRegistry } from "./webhook-registry.js";

export interface WebhookRequest {
  readonly method: string;
  readonly operation: WebhookOperation;
  /** The id in `Get(n)`, `Delete(n)`, `Invoke(n)`. */
  readonly id?: number | undefined;
  /** The hosted file's own name: the registry's key. */
  readonly database: string;
  /** The database as the request's URL wrote it, which the answer's `@context` echoes. */
  readonly urlDb: string;
  readonly db: HostedDatabase;
  readonly query: QueryOptions;
  /** The request body (POST), read whole. */
  readonly body: Buffer | undefined;
  /** `http://host:port/fmi/odata/v4` as the client reached it. */
  readonly root: string;
  readonly annotations: Annotations;
}

/** Get and GetAll are GET; Add, Delete and Invoke are POST (CL, PKC; FSP's all-POST is wrong). */
const METHODS: Record<WebhookOperation, string> = { Add: "POST", GetAll: "GET", Get: "GET", Delete: "POST", Invoke: "POST" };

/** Answers one webhook request: 200 and its body, or throws ODataError. */
export function serveWebhook(registry: WebhookRegistry, req: WebhookRequest): Body {
  if (req.method !== METHODS[req.operation]) throw new ODataError(405, "-1002", `Error: ${req.method} is not supported on Webhook.${req.operation} (it takes ${METHODS[req.operation]})`);
  const given = Object.entries(req.query).filter(([k, v]) => k !== "ignored" && v !== undefined);
  if (given.length > 0) throw new ODataError(400, "-1002", `Error: $${given[0]![0]} does not apply to Webhook.${req.operation}`);
  const context = (fragment: string): Body => {
    if (req.annotations.none) return {};
    const name = req.annotations.prefixed ? "@odata.context" : "@context";
    return { [name]: `${req.root}${formatODataPath({ kind: "serviceDocument", db: req.urlDb })}/$metadata#${fragment}` };
  };
  const id = req.id ?? 0;
  switch (req.operation) {
    case "Add": {
      const spec = parseWebhookAdd(req.body, registry.targets);
      // Kept under the table's own name (a request may spell it in another case), as its payloads name it.
      const set = findSet(req.db, { by: "name", name: spec.tableName });
      return { webhookResult: { webhookID: registry.add(req.database, { ...spec, tableName: set.name }) } };
    }
    case "GetAll":
      return { ...context("WebHook Processor"), status: "ACTIVE", webhooks: registry.list(req.database) };
    case "Get":
      return { ...context("WebHook"), ...registry.describe(req.database, id) };
    case "Delete": {
      // Section 7: an empty body; `{}` is taken too, anything else is refused (rule one).
      const o = parseJsonObject(req.body, "Webhook.Delete", true);
      if (o !== undefined && Object.keys(o).length > 0) throw badBody(`Webhook.Delete: the request body must be empty, it has "${Object.keys(o)[0]!.slice(0, 100)}"`);
      registry.delete(req.database, id);
      return { webhookResult: { webhookID: id } };
    }
    case "Invoke":
      return registry.invoke(req.database, id, parseInvokeBody(req.body));
  }
}
