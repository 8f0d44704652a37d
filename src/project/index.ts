/**
 * The project on disk, shared by `fmgen generate`, `fmgen pull`, `fmgen init` and the description loader: the
 * config file and how it is found, which description files the `layouts` entries name, JSON files read with
 * errors that say where, the one JSON layout fmgen writes, atomic writes, and paths shown `/`-separated. It imports
 * no other folder of src/.
 */
export { compareCodeUnits } from "./compare.js";
export {
  CONFIG_FILE_NAME,
  DEFAULT_PASSWORD_ENV,
  DEFAULT_USERNAME_ENV,
  configSchema,
  IMPORT_EXTENSIONS,
  type ImportExtension,
  generateOptionsSchema,
  parseConfig,
  loadConfigFile,
  findProjectConfig,
  serverBaseUrl,
  credentialsInUrl,
  configJsonSchema,
  configJsonSchemaText,
  ConfigFileError,
  type FmgenConfig,
  type FmgenConfigInput,
  type ProjectConfig,
} from "./config.js";
export { descriptionFiles, DescriptionPathError, LAYOUT_FILE_SUFFIX, TABLE_FILE_SUFFIX, type DiscoveryOptions } from "./description-files.js";
export { pathExists, readIfExists, writeFilesAtomically, TEMP_FILE_SUFFIX } from "./files.js";
export { expandGlob, globBase, globToRegExp, isGlob } from "./glob.js";
export { JsonFileError, describeIssue, formatJsonPath, parseJson, parseJsonText, readJsonFile, type JsonFileErrorClass } from "./json-file.js";
export { formatJson } from "./json-format.js";
export { posixRelative, toPosixPath } from "./paths.js";
export { schemaReference } from "./schema-reference.js";
