import { describe, expect, it } from "vitest";
import { containerFile, fileNameIn, sizeIn } from "../../src/runtime/core/container-file.js";

// The container file both APIs' downloads hand out (src/runtime/core/container-file.ts): the name a Content-Disposition
// gives, read one way for both, and never a path; the size and type from the headers; the body read once.

describe("a downloaded file's name from Content-Disposition", () => {
  it.each([
    ['attachment; filename="report.pdf"', "report.pdf"],
    ["inline; filename=plain.txt", "plain.txt"],
    // filename* (RFC 5987) wins over filename, percent-decoded.
    [`attachment; filename="fallback.pdf"; filename*=UTF-8''Zo%C3%AB%27s%20notes.pdf`, "Zoë's notes.pdf"],
    // A quoted name's escapes are undone.
    ['attachment; filename="a \\"quoted\\" name.txt"', 'a "quoted" name.txt'],
    // A filename* that is not percent-encoding after all is the name as sent.
    [`attachment; filename*=UTF-8''100%25%; filename="plain.bin"`, "100%25%"],
  ])("%s is %s", (header, name) => {
    expect(fileNameIn(header)).toBe(name);
  });

  it.each([
    ['attachment; filename="../../etc/passwd"', "passwd"],
    ['attachment; filename="C:\\\\Users\\\\x\\\\evil.exe"', "evil.exe"],
    [`attachment; filename*=UTF-8''..%2F..%2Fsecret`, "secret"],
    ['attachment; filename="tab\tname\u0007.txt"', "tabname.txt"],
  ])("a path or control characters in %j leave only the name %s", (header, name) => {
    expect(fileNameIn(header)).toBe(name);
  });

  it("without a name in the header, is the URL's last segment, percent-decoded, only its last part", () => {
    expect(fileNameIn(null, "ok%20file.txt")).toBe("ok file.txt");
    expect(fileNameIn("inline", "..%2F..%2Fetc%2Fpasswd")).toBe("passwd");
    expect(fileNameIn(null, "100%")).toBe("100%");
    expect(fileNameIn(null, "")).toBeUndefined();
    expect(fileNameIn('attachment; filename="named.pdf"', "segment.pdf")).toBe("named.pdf");
  });

  it.each([undefined, null, "", "inline", 'attachment; filename=".."', 'attachment; filename="."', 'attachment; filename=""', 'attachment; filename="a/"'])(
    "%j gives no name (each API has its default)",
    (header) => {
      expect(fileNameIn(header)).toBeUndefined();
    },
  );
});

describe("a downloaded file", () => {
  it("has the answer's type (application/octet-stream without one) and size, and reads its body once", async () => {
    const body = () => new Blob([new Uint8Array([1, 2, 3])]).stream();
    const file = containerFile("a.bin", "image/png", 3, body());
    expect([file.name, file.type, file.size]).toEqual(["a.bin", "image/png", 3]);
    expect(await file.bytes()).toEqual(new Uint8Array([1, 2, 3]));
    const typeless = containerFile("b", "", undefined, body());
    expect(typeless.type).toBe("application/octet-stream");
    const blob = await typeless.blob();
    expect([blob.type, blob.size]).toEqual(["application/octet-stream", 3]);
  });

  it.each([
    ["1234", 1234],
    [undefined, undefined],
    [null, undefined],
    ["12.5", undefined],
    ["many", undefined],
  ])("Content-Length %j is the size %j", (header, size) => {
    expect(sizeIn(header)).toBe(size);
  });
});
