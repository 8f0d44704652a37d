// What both entries of @fmgen/runtime/odata export, whatever carries their requests. The entries add
// `createODataClient`: index.ts (Node: undici's dispatcher) and fetch.ts (everywhere else: global fetch).
// Nothing here, or in anything it imports, is the Data API's code (test/runtime/odata-entry.test.ts checks).
export { defineTable } from "./definition.js";
export type {
  AnyTable,
  AnyTableTypes,
  ContainerNameOf,
  FieldKind,
  FieldNameOf,
  InsertOf,
  KeyOf,
  KindsOf,
  RelationNameOf,
  RelationsOf,
  RelationSpec,
  RowOf,
  RowRef,
  TableDefinition,
  TableFieldSpec,
  TableOfClient,
  TableOfDatabase,
  TableSpec,
  TableSpecTypes,
  TableTypes,
  TableTypesKey,
  TableTypesOf,
  UpdateOf,
  WritableNameOf,
} from "./definition.js";
export { f, Filter, type FilterKind, type FilterValue, type KindsAccepting } from "./filter.js";
export type { ExpandOf, ExpandOptions, FilterOf, OrderBy } from "./definition.js";
export type { AllOptions, CallOptions, ListOptions, ListResult, OrderByOf, ReadOptions, RowResult, ShapedRow, SpecialColumns } from "./shapes.js";
export type { CommonODataClientOptions, ODataAuth, ODataClient, ScriptRunResult, TableClient, UploadOptions } from "./api.js";
export type { ContainerFile } from "../core/container-file.js";
export {
  CapacityError,
  DatabaseMissingError,
  FieldMissingError,
  FieldReadOnlyError,
  InvalidCredentialsError,
  NetworkError,
  ODataDecodeError,
  ODataError,
  ProtocolError,
  RecordMissingError,
  RequestSyntaxError,
  ResponseTooLargeError,
  SchemaLockedError,
  ScriptMissingError,
  TableMissingError,
  ValidationError,
  type FailedCall,
} from "./errors.js";
export type { RetryPolicy } from "../core/retry.js";
export type { BatchBuilder, BatchOptions, BatchResults, BatchStep, BatchTable } from "./batch-types.js";
export { BatchReadBackError } from "./batch-read-back-error.js";
export type { NewField, SchemaCalls, TableChange } from "./schema-types.js";
export type { NewWebhook, PendingOperation, Webhook, WebhookCalls } from "./webhook-types.js";
