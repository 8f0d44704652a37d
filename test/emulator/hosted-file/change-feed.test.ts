import { describe, expect, it, vi } from "vitest";
import { emitChange, holdChanges, onChange, type RecordChange } from "../../../src/emulator/hosted-file/change-feed.js";
import { NameMap } from "../../../src/emulator/hosted-file/name-map.js";
import type { HostedDatabase } from "../../../src/emulator/hosted-file/store.js";

const db = (): HostedDatabase => ({ model: { name: "T", layouts: new Map(), tables: new Map() } as never, tables: new NameMap() });
const add = (rowID: number): RecordChange => ({ operation: "ADD", table: "Contacts", rowIDs: [rowID] });

describe("the hosted file's change feed", () => {
  it("tells every listener of its own database, in order, until it stops listening", () => {
    const one = db();
    const other = db();
    const seen: number[] = [];
    const stop = onChange(one, (c) => seen.push(c.rowIDs[0]!));
    onChange(other, () => seen.push(-1));
    emitChange(one, add(1));
    emitChange(one, add(2));
    stop();
    emitChange(one, add(3));
    expect(seen).toEqual([1, 2]);
  });

  it("tells changes made inside holdChanges only when its work returns, and drops them when it throws", () => {
    const d = db();
    const seen: number[] = [];
    onChange(d, (c) => seen.push(c.rowIDs[0]!));
    expect(() =>
      holdChanges(d, () => {
        emitChange(d, add(1));
        throw new Error("rolled back");
      }),
    ).toThrow("rolled back");
    expect(seen).toEqual([]);
    expect(
      holdChanges(d, () => {
        emitChange(d, add(2));
        holdChanges(d, () => emitChange(d, add(3)));
        expect(seen).toEqual([]);
        return "done";
      }),
    ).toBe("done");
    expect(seen).toEqual([2, 3]);
  });

  it("reports a listener that throws without failing the writer or the other listeners", () => {
    const d = db();
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const seen: number[] = [];
    onChange(d, () => {
      throw new Error("listener broke");
    });
    onChange(d, (c) => seen.push(c.rowIDs[0]!));
    expect(() => emitChange(d, add(7))).not.toThrow();
    expect(seen).toEqual([7]);
    expect(error.mock.calls[0]?.[0]).toContain("listener broke");
    error.mockRestore();
  });
});
