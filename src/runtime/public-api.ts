// What every entry of the runtime exports, whatever carries its requests. The entries add `createClient`:
// index.ts (Node: undici's dispatcher) and fetch.ts (everywhere else: global fetch).
export type { CommonClientOptions, FileMakerClient } from "./client.js";
export type { LayoutEntry, LayoutListing, ListingOptions, ScriptEntry } from "./layout-list.js";
export type { DatabaseCalls, DatabaseEntry, ProductInfo } from "./database-calls.js";
export { LayoutClient, NotExactlyOneError } from "./layout-client.js";
export type { CallOptions, DataInfo, FindOptions, ListOptions, Page, SortOrder, SortSpec, StreamOptions, UploadOptions, ContainerDownloadOptions, ContainerFile, DownloadOptions } from "./layout-client.js";
export type { CriteriaOf, CriterionFor, FieldCriterion, FindableOf, FindFields, FindOmit, FindRequest, KindsOf, NotApplicable, QueryOf } from "./find-request.js";
export { q, HELPERS_BY_KIND, type Comparable, type Criterion, type HelperName, type HelpersOf } from "./q.js";
export { FindQuery, type QueryOptions, type StreamQueryOptions } from "./query-builder.js";
export type { ChosenPortals, NewPortalRow, OnlyPortals, PortalChoice, PortalEdits, PortalInfo, PortalRange, RelatedRow, ViewCheck, ViewOptions, ViewRecord } from "./portal-selection.js";
export { defineLayout } from "./definition.js";
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
} from "./definition.js";
export { DecodeError } from "./codecs.js";
export { escapeFindValue } from "./find-criteria.js";
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
} from "./errors.js";
export { NetworkError, ProtocolError, ResponseTooLargeError, type FailedCall } from "./protocol-errors.js";
export type { Auth, ExternalDataSource } from "./session.js";
export type { RetryPolicy } from "./retry.js";
export type { UploadSource } from "./multipart.js";
export { defineDatabase, databaseName } from "./database.js";
export type { AnyDatabase, DatabaseDefinition, DatabaseSpec, GlobalsOf, GlobalValue, LayoutOfClient, ScriptNameOf } from "./database.js";
export { memoryTokenStore, type TokenStore } from "./token-store.js";
export { assertScripts, ScriptError, type EntryMode, type EntryOptions, type ScriptCall, type ScriptOptions, type ScriptResult, type ScriptResults, type ScriptsOf } from "./script-options.js";
