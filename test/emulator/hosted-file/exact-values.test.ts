import { describe, expect, it } from "vitest";
import { ExactNumber, numberText, type StoredNumber } from "../../../src/emulator/hosted-file/exact-number.js";
import type { TableField } from "../../../src/emulator/hosted-file/model.js";
import { NameMap } from "../../../src/emulator/hosted-file/name-map.js";
import { buildNewRecord, uniqueKey } from "../../../src/emulator/hosted-file/records/record-writes.js";
import { SCRIPT_ENTRY } from "../../../src/emulator/hosted-file/records/entry-options.js";
import { EmulatorClock } from "../../../src/emulator/hosted-file/clock.js";
import { FILE_GLOBALS } from "../../../src/emulator/hosted-file/globals.js";
import { joinKey } from "../../../src/emulator/hosted-file/relations.js";
import { sortRecords } from "../../../src/emulator/hosted-file/sorting.js";
import { TableData, type StoredRecord } from "../../../src/emulator/hosted-file/store.js";
import { decodeWireValue, encodeWireValue, isContainerRef, scriptValue, type StoredValue } from "../../../src/emulator/hosted-file/stored-value.js";
import { NumberToken, stringifyJson } from "../../../src/runtime/core/json-numbers.js";

// docs/emulator.md, "Numbers": the hosted file's own functions over exact values, which both APIs call: decoding a
// client's value, answering it, the unique, join and value keys, sorting and serials.

const KEY = "1234567890123456789012345678901234567890123456789012345678";
const KEY_UP = "1234567890123456789012345678901234567890123456789012345679";

const field = (name: string, type: TableField["type"] = "number"): TableField => ({ name, type, repetitions: 1, readOnly: false, required: false, unique: false, validate: "dataEntry", global: false, declaredIn: "test" });
const number = (raw: unknown): StoredNumber => {
  const decoded = decodeWireValue("number", raw);
  if (!decoded.ok) throw new Error(decoded.problem ?? "not a number");
  return decoded.value as StoredNumber;
};

describe("decodeWireValue and encodeWireValue for numbers", () => {
  it("reads a JSON number, a NumberToken and a numeric string, each exactly", () => {
    expect(number(2.5)).toBe(2.5);
    expect(Object.is(number(-0), 0)).toBe(true);
    expect(number(new NumberToken(KEY))).toBeInstanceOf(ExactNumber);
    expect(numberText(number(new NumberToken(KEY)))).toBe(KEY);
    expect(numberText(number(`  ${KEY}.500 `))).toBe(`${KEY}.5`);
    expect(number("+.5")).toBe(0.5);
    expect(numberText(number(new NumberToken("1e30")))).toBe(`1${"0".repeat(30)}`);
  });

  it("says why a number is not one the file keeps", () => {
    expect(decodeWireValue("number", new NumberToken("9".repeat(401)))).toEqual({ ok: false, problem: "it has 401 significant digits, more than the 400 FileMaker keeps" });
    expect(decodeWireValue("number", "1e-401")).toEqual({ ok: false, problem: "it is beyond FileMaker's range of numbers (10^-400 to 10^400)" });
    expect(decodeWireValue("number", "abc")).toEqual({ ok: false, problem: "it is not a number" });
    expect(decodeWireValue("number", Number.POSITIVE_INFINITY)).toEqual({ ok: false });
    expect(decodeWireValue("date", new NumberToken(KEY))).toEqual({ ok: false });
  });

  it("keeps a long token's text in a text field", () => {
    expect(decodeWireValue("text", new NumberToken(KEY))).toEqual({ ok: true, value: KEY });
  });

  it("answers an exact value as a NumberToken, written bare, and gives handlers its text", () => {
    const value = number(new NumberToken(KEY));
    const wire = encodeWireValue("number", value, () => "");
    expect(wire).toBeInstanceOf(NumberToken);
    expect(stringifyJson({ Key: wire })).toBe(`{"Key":${KEY}}`);
    expect(scriptValue(wire)).toBe(KEY);
    expect(scriptValue(encodeWireValue("number", 7, () => ""))).toBe(7);
    expect(isContainerRef(value)).toBe(false);
    expect(isContainerRef({ id: "A", filename: "a.png", contentType: "image/png", size: 1 })).toBe(true);
  });
});

describe("keys and order over exact values", () => {
  it("keys unique values and joins by value, every digit", () => {
    expect(uniqueKey(number("1.50"))).toBe(uniqueKey(number(1.5)));
    expect(uniqueKey(number(new NumberToken(KEY)))).not.toBe(uniqueKey(number(new NumberToken(KEY_UP))));
    expect(joinKey(number(new NumberToken(KEY)))).toBe(KEY);
    expect(joinKey(number(1e21))).toBe(`1${"0".repeat(21)}`);
    expect(joinKey(number(new NumberToken(KEY)))).not.toBe(joinKey(number(new NumberToken(KEY_UP))));
  });

  it("looks records up by exact value (recordsWithValue), indexed and not", () => {
    const key = field("Key");
    const table = new TableData({ name: "T", fields: new NameMap([["Key", key]]) });
    const put = (recordId: number, value: StoredValue) => table.put({ recordId, modId: 0, values: new Map([["Key", [value]]]) });
    put(1, number(new NumberToken(KEY)));
    put(2, number(new NumberToken(KEY_UP)));
    put(3, 1.5);
    const ids = (value: string | StoredNumber) => table.recordsWithValue(key, value).map((r) => r.recordId);
    expect(ids(number(new NumberToken(KEY)))).toEqual([1]);
    expect(ids(number(new NumberToken(KEY_UP)))).toEqual([2]);
    expect(ids(number("1.50"))).toEqual([3]);
    expect(ids(Number(KEY))).toEqual([]);
    expect(ids(KEY)).toEqual([]);
    // Changed after the index was made: the index follows.
    put(3, number(new NumberToken(KEY)));
    expect(ids(number(new NumberToken(KEY)))).toEqual([1, 3]);
  });

  it("sorts doubles and exact values together by value", () => {
    const amount = field("Amount");
    const table = new TableData({ name: "T", fields: new NameMap([["Amount", amount]]) });
    const values: StoredValue[] = [number(new NumberToken(KEY_UP)), number(new NumberToken(KEY)), null, number(new NumberToken(`-${KEY}`)), 3, number(new NumberToken("0.30000000000000001")), 0.3];
    const records: StoredRecord[] = values.map((value, i) => ({ recordId: i + 1, modId: 0, values: new Map([["Amount", [value]]]) }));
    const order = (descending: boolean) => sortRecords(table, records, [{ field: amount, descending }]).map((r) => r.recordId);
    expect(order(false)).toEqual([3, 4, 7, 6, 5, 2, 1]);
    expect(order(true)).toEqual([1, 2, 5, 6, 7, 4, 3]);
  });

  it("counts serials on exactly past 2^53 and past a 58-digit value", () => {
    const table = new TableData({ name: "T", fields: new NameMap([["Seq", field("Seq")]]) });
    table.noteSerialValue("Seq", 9007199254740991);
    expect(numberText(table.peekSerial("Seq"))).toBe("9007199254740992");
    table.noteSerialValue("Seq", number("9007199254740992"));
    expect(numberText(table.peekSerial("Seq"))).toBe("9007199254740993");
    table.noteSerialValue("Seq", number(new NumberToken(KEY)));
    expect(table.peekSerial("Seq")).toBeInstanceOf(ExactNumber);
    expect(numberText(table.peekSerial("Seq"))).toBe(KEY_UP);
    // Lower values and fractions leave it where it is; a text serial's digits count too.
    table.noteSerialValue("Seq", 5);
    table.noteSerialValue("Seq", number(`${KEY_UP}.5`));
    expect(numberText(table.peekSerial("Seq"))).toBe(KEY_UP);
    table.noteSerialValue("Seq", ` ${KEY_UP} `);
    expect(numberText(table.peekSerial("Seq"))).toBe(`${KEY.slice(0, -2)}80`);
  });

  it("gives a text serial field past 2^53 the next value's digits", () => {
    const code = field("Code", "text");
    const table = new TableData({ name: "T", fields: new NameMap([["Code", { ...code, autoEnter: "serial" as const }]]) });
    const created = buildNewRecord(table, [], new EmulatorClock(), FILE_GLOBALS, SCRIPT_ENTRY);
    expect(created.record.values.get("Code")).toEqual(["1"]);
    table.noteSerialValue("Code", KEY);
    expect(buildNewRecord(table, [], new EmulatorClock(), FILE_GLOBALS, SCRIPT_ENTRY).record.values.get("Code")).toEqual([KEY_UP]);
  });
});
