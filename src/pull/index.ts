/**
 * `fmgen pull`: layout descriptions from live layouts.
 * read (metadata: `liveFromMetadata`; sampling: `sampleLayout` + `inferFieldType`) -> merge with the file on disk
 * (`mergeLayout`, three-way with `PullState`) -> diff (`diffDescriptions`) -> report (`layoutReport`, `reportLines`)
 * -> write | check.
 * The database description: `GET /scripts` (`readScripts`) -> merge (`mergeDatabase`) -> diff (`diffDatabase`).
 * `--odata`: table descriptions from `$metadata` (`readMetadata`, `tablesFromCsdl`) -> merge (`mergeTable`, three-way
 * with `PullState` as layouts are: ownership.ts) -> diff (`diffTables`) -> report (`tableReport`, the same printer).
 */
export { PullError } from "./errors.js";
export { pull, listServerLayouts, DEFAULT_SAMPLE, type PullOptions, type PullResult, type LayoutPullResult, type DatabasePullResult, type LayoutStatus, type SourceChoice } from "./pull.js";
export { readScripts, mergeDatabase, diffDatabase, scriptChangeLine, databaseFileName, type LiveScript, type ScriptChange, type ScriptChangeKind } from "./database-file.js";
export { liveFromMetadata } from "./from-metadata.js";
export { sampleLayout, inferLayout, EmptyLayoutError } from "./sample.js";
export { inferFieldType, classifyWireValue, decodesAs, groupRepetitions, CONFIDENT_AFTER, type InferredType, type WireClass } from "./infer.js";
export { mergeLayout, mergeByName, type MergeInput, type MergeResult, type UncertainField } from "./merge.js";
export { diffDescriptions } from "./diff.js";
export { changeLine, fieldSummary, type Change, type ChangeKind } from "./change.js";
export { PullState, PULL_STATE_FILE_NAME } from "./state.js";
export { reportLines, reportJson, closingLine, type PullReport, type ReportedFile } from "./report.js";
export { layoutReport } from "./layout-report.js";
export { resolvePullSettings, readCredentials, PullSettingsError, type PullSettings, type SettingsRequest } from "./settings.js";
export type { LiveLayout, LiveField, LivePortal, LiveSource, Confidence } from "./live.js";
export { pullTables, listServerTables, type TablePullOptions, type TablesPullResult, type TablePullResult, type TableStatus } from "./odata/pull-tables.js";
export { tableReport } from "./odata/table-report.js";
export { tablesFromCsdl, CsdlError, type LiveTable, type LiveTableField, type LiveRelation } from "./odata/csdl.js";
export { mergeTable, type BaseTable, type BaseTableField, type TableMergeInput, type TableMergeResult } from "./odata/merge.js";
export { diffTables } from "./odata/diff.js";
export { readMetadata, metadataUrl } from "./odata/fetch-metadata.js";
export { MAX_METADATA_BYTES } from "./odata/xml.js";
