import { findRecords } from "../handlers/find.js";
import { uploadContainer } from "../handlers/containers.js";
import { layoutMetadata, listLayouts } from "../handlers/metadata.js";
import { createRecord, deleteRecord, editRecord, getRecord, listRecords } from "../handlers/records.js";
import { login, logout } from "../handlers/sessions.js";
import { route, type Route } from "./routes.js";
import { isPortalRangeBodyName, isPortalRangeQueryName } from "../portal-selection.js";

/** The layout metadata endpoints, which an emulator started with `metadata: false` does not have. */
export const METADATA_ROUTES: readonly Route[] = [
  route("GET", "databases/:database/layouts", "bearer", listLayouts),
  route("GET", "databases/:database/layouts/:layout", "bearer", layoutMetadata),
];

/** Every Data API endpoint, relative to `/fmi/data/{version}`. */
export const ROUTES: readonly Route[] = [
  route("POST", "databases/:database/sessions", "basic", login, { body: ["fmDataSource"] }),
  route("DELETE", "databases/:database/sessions/:token", "none", logout),
  ...METADATA_ROUTES,
  route("GET", "databases/:database/layouts/:layout/records", "bearer", listRecords, { query: ["_offset", "_limit", "_sort", "dateformats", "portal", "layout.response"], dynamicQuery: isPortalRangeQueryName }),
  route("POST", "databases/:database/layouts/:layout/records", "bearer", createRecord, { body: ["fieldData", "portalData", "dateformats"] }),
  route("GET", "databases/:database/layouts/:layout/records/:recordId", "bearer", getRecord, { query: ["dateformats", "portal", "layout.response"], dynamicQuery: isPortalRangeQueryName }),
  route("PATCH", "databases/:database/layouts/:layout/records/:recordId", "bearer", editRecord, { body: ["fieldData", "portalData", "modId", "dateformats"] }),
  route("DELETE", "databases/:database/layouts/:layout/records/:recordId", "bearer", deleteRecord),
  route("POST", "databases/:database/layouts/:layout/_find", "bearer", findRecords, { body: ["query", "sort", "offset", "limit", "dateformats", "portal", "layout.response"], dynamicBody: isPortalRangeBodyName }),
  route("POST", "databases/:database/layouts/:layout/records/:recordId/containers/:fieldName/:fieldRepetition", "bearer", uploadContainer),
];

/** The endpoints of a server without layout metadata. */
export const ROUTES_WITHOUT_METADATA: readonly Route[] = ROUTES.filter((r) => !METADATA_ROUTES.includes(r));
