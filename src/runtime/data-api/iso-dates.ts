/**
 * The wire forms of `dateFormat: "iso"` (`dateformats=2`): dates and timestamps as the app writes them, checked the
 * same way; a timestamp is written with a space (servers refuse the `T` in writes) and read with its `T`. A module of
 * its own, so that the schema entry (which loads codecs.ts) leaves them out.
 */
import { DECODERS, ENCODERS, INVALID } from "./codecs.js";

const iso =
  (encode: (value: unknown) => unknown) =>
  (value: unknown): string | typeof INVALID =>
    encode(value) === INVALID ? INVALID : (value as string);
const isoTimestamp = iso(ENCODERS.timestamp);
export const ISO_ENCODERS: typeof ENCODERS = {
  ...ENCODERS,
  date: iso(ENCODERS.date),
  timestamp: (value) => {
    const wire = isoTimestamp(value);
    return wire === INVALID ? wire : wire.replace("T", " ");
  },
};
export const ISO_DECODERS: typeof DECODERS = { ...DECODERS, date: (raw) => (raw === "" ? null : ISO_ENCODERS.date(raw)), timestamp: (raw) => (raw === "" ? null : isoTimestamp(raw)) };
