// What every entry of the runtime exports, whatever carries its requests. The entries add `createClient`:
// index.ts (Node: undici's dispatcher) and fetch.ts (everywhere else: global fetch).
export type { CommonClientOptions, FileMakerClient } from "./data-api/client.js";
export type { LayoutEntry, LayoutListing, ListingOptions, ScriptEntry } from "./data-api/layout-list.js";
export type { DatabaseCalls, DatabaseEntry, ProductInfo } from "./data-api/database-calls.js";
export { LayoutClient, NotExactlyOneError } from "./data-api/layout-client.js";
export type { CallOptions, DataInfo, FindOptions, ListOptions, Page, SortOrder, SortSpec, StreamOptions, UploadOptions, ContainerDownloadOptions, DownloadOptions } from "./data-api/layout-client.js";
export type { ContainerFile } from "./core/container-file.js";
export type { CriteriaOf, CriterionFor, FieldCriterion, FindableOf, FindFields, FindOmit, FindRequest, KindsOf, NotApplicable, QueryOf } from "./data-api/find-request.js";
export { q, HELPERS_BY_KIND, type Comparable, type Criterion, type HelperName, type HelpersOf } from "./data-api/q.js";
export { FindQuery, type QueryOptions, type StreamQueryOptions } from "./data-api/query-builder.js";
export type { ChosenPortals, NewPortalRow, OnlyPortals, PortalChoice, PortalEdits, PortalInfo, PortalRange, RelatedRow, ViewCheck, ViewOptions, ViewRecord } from "./data-api/portal-selection.js";
export { defineLayout } from "./data-api/definition.js";
export type {
  AnyDefinition,
  AnyLayoutTypes,
  ContainerSpec,
  ContainersOf,
  DefinitionTypes,
  FieldKind,
  FieldSpec,
  FieldsOf,
  FmRecord,
  HandWrittenTypes,
  InputOf,
  InputValue,
  KindSource,
  LayoutDefinition,
  LayoutSpec,
  LayoutTypes,
  LayoutTypesKey,
  Named,
  PortalFieldsOf,
  PortalInputOf,
  PortalRow,
  PortalRowOf,
  PortalSpec,
  PortalsOf,
  ReadValue,
  RecordOf,
  RowIds,
  SpecKindsOf,
  SpecTypes,
  TypesOf,
} from "./data-api/definition.js";
export { DecodeError } from "./data-api/codecs.js";
export { escapeFindValue } from "./data-api/find-criteria.js";
export {
  CapacityError,
  DatabaseMissingError,
  FieldMissingError,
  FileMakerError,
  InvalidCredentialsError,
  InvalidTokenError,
  LayoutMissingError,
  ModIdMismatchError,
  NoRecordsMatchError,
  RecordMissingError,
  ScriptMissingError,
  ValidationError,
} from "./data-api/errors.js";
export { NetworkError, ProtocolError, ResponseTooLargeError, type FailedCall } from "./core/protocol-errors.js";
export type { Auth, ExternalDataSource } from "./data-api/session.js";
export type { RetryPolicy } from "./core/retry.js";
export type { UploadSource } from "./data-api/multipart.js";
export { defineDatabase, databaseName } from "./data-api/database.js";
export type { AnyDatabase, DatabaseDefinition, DatabaseSpec, GlobalsOf, GlobalValue, LayoutOfClient, ScriptNameOf } from "./data-api/database.js";
export { memoryTokenStore, type TokenStore } from "./data-api/token-store.js";
export { assertScripts, ScriptError, type EntryMode, type EntryOptions, type ScriptCall, type ScriptOptions, type ScriptResult, type ScriptResults, type ScriptsOf } from "./data-api/script-options.js";
