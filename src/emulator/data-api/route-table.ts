import { findRecords } from "./handlers/find.js";
import { uploadContainer } from "./handlers/containers.js";
import { layoutMetadata, listLayouts } from "./handlers/metadata.js";
import { createRecord, deleteRecord, editRecord, getRecord, listRecords } from "./handlers/records.js";
import { duplicateRecord } from "./handlers/duplicate.js";
import { login, logout } from "./handlers/sessions.js";
import { listDatabases, productInfo } from "./handlers/server-info.js";
import { route, type Route } from "./routes.js";
import { setGlobals } from "./handlers/globals.js";
import { listScripts, runStandaloneScript } from "./handlers/scripts.js";
import { SCRIPT_KEYS } from "./script-phases.js";
import { isPortalRangeBodyName, isPortalRangeQueryName } from "./portal-selection.js";

/** The layout metadata endpoints, which an emulator started with `metadata: false` does not have. */
export const METADATA_ROUTES: readonly Route[] = [
  route("GET", "databases/:database/layouts", "bearer", listLayouts),
  route("GET", "databases/:database/layouts/:layout", "bearer", layoutMetadata, { query: ["recordId"] }),
];

/** Every Data API endpoint, relative to `/fmi/data/{version}`. */
export const ROUTES: readonly Route[] = [
  // Server-level: no database in the path (docs/emulator.md, "8. Server and database metadata"); /databases checks
  // Basic credentials itself.
  route("GET", "productInfo", "none", productInfo),
  route("GET", "databases", "none", listDatabases),
  route("POST", "databases/:database/sessions", "basic", login, { body: ["fmDataSource"] }),
  route("DELETE", "databases/:database/sessions/:token", "none", logout),
  ...METADATA_ROUTES,
  route("GET", "databases/:database/layouts/:layout/records", "bearer", listRecords, { query: ["_offset", "_limit", "_sort", "dateformats", "portal", "layout.response", ...SCRIPT_KEYS], dynamicQuery: isPortalRangeQueryName }),
  route("POST", "databases/:database/layouts/:layout/records", "bearer", createRecord, { body: ["fieldData", "portalData", "options", "dateformats", ...SCRIPT_KEYS] }),
  route("GET", "databases/:database/layouts/:layout/records/:recordId", "bearer", getRecord, { query: ["dateformats", "portal", "layout.response", ...SCRIPT_KEYS], dynamicQuery: isPortalRangeQueryName }),
  route("PATCH", "databases/:database/layouts/:layout/records/:recordId", "bearer", editRecord, { body: ["fieldData", "portalData", "modId", "options", "dateformats", ...SCRIPT_KEYS] }),
  route("POST", "databases/:database/layouts/:layout/records/:recordId", "bearer", duplicateRecord, { body: SCRIPT_KEYS }),
  route("DELETE", "databases/:database/layouts/:layout/records/:recordId", "bearer", deleteRecord, { query: SCRIPT_KEYS, body: SCRIPT_KEYS }),
  route("POST", "databases/:database/layouts/:layout/_find", "bearer", findRecords, { body: ["query", "sort", "offset", "limit", "dateformats", "portal", "layout.response", ...SCRIPT_KEYS], dynamicBody: isPortalRangeBodyName, dynamicQuery: isPortalRangeQueryName }),
  route("POST", "databases/:database/layouts/:layout/records/:recordId/containers/:fieldName/:fieldRepetition", "bearer", uploadContainer, { query: ["modId"] }),
  // Without the repetition segment (what @proofkit/fmdapi sends by default): repetition 1, as FileMaker Server takes it.
  route("POST", "databases/:database/layouts/:layout/records/:recordId/containers/:fieldName", "bearer", uploadContainer, { query: ["modId"] }),
  route("PATCH", "databases/:database/globals", "bearer", setGlobals, { body: ["globalFields"] }),
  route("GET", "databases/:database/scripts", "bearer", listScripts),
  route("GET", "databases/:database/layouts/:layout/script/:script", "bearer", runStandaloneScript, { query: ["script.param"] }),
];

/** The endpoints of a server without layout metadata. */
export const ROUTES_WITHOUT_METADATA: readonly Route[] = ROUTES.filter((r) => !METADATA_ROUTES.includes(r));
