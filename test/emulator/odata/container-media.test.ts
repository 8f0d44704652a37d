import { describe, expect, it } from "vitest";
import { attachmentDisposition, decodeBase64, dispositionFilename, sniffMediaType, untitled } from "../../../src/emulator/odata/container-media.js";
import { expectODataError } from "./odata-errors.js";

// The pure parts of OData's containers (docs/emulator.md, "Containers and scripts"): magic bytes, Content-Disposition
// names (RFC 6266, RFC 5987), default names, strict base64.

const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? Array.from(p, (c) => c.charCodeAt(0)) : p)));

describe("sniffMediaType", () => {
  it("knows the images and PDF the upload takes, and a few common others", () => {
    expect(sniffMediaType(bytes([0x89], "PNG\r\n\x1a\n"))).toBe("image/png");
    expect(sniffMediaType(bytes([0xff, 0xd8, 0xff, 0xdb]))).toBe("image/jpeg");
    expect(sniffMediaType(bytes("GIF87a"))).toBe("image/gif");
    expect(sniffMediaType(bytes("GIF89a"))).toBe("image/gif");
    expect(sniffMediaType(bytes("II*", [0]))).toBe("image/tiff");
    expect(sniffMediaType(bytes("MM", [0], "*"))).toBe("image/tiff");
    expect(sniffMediaType(bytes("%PDF-1.4"))).toBe("application/pdf");
    expect(sniffMediaType(bytes("RIFF", [1, 2, 3, 4], "WEBPVP8 "))).toBe("image/webp");
    expect(sniffMediaType(bytes("RIFF", [1, 2, 3, 4], "WAVEfmt "))).toBe("audio/wav");
    expect(sniffMediaType(bytes([0, 0, 0, 24], "ftypheic"))).toBe("image/heic");
    expect(sniffMediaType(bytes([0, 0, 0, 24], "ftypisom"))).toBe("video/mp4");
    expect(sniffMediaType(bytes("PK", [3, 4]))).toBe("application/zip");
    expect(sniffMediaType(bytes("BM6"))).toBe("image/bmp");
  });

  it("knows nothing of unknown or too short bytes", () => {
    for (const b of [bytes(""), bytes([0x89, 0x50]), bytes("GIF88a"), bytes("RIFF", [1, 2, 3, 4], "AVI "), bytes("hello")]) expect(sniffMediaType(b)).toBeUndefined();
  });

  it("names files sent without a name Untitled.<ext>", () => {
    expect([untitled("image/png"), untitled("image/jpeg"), untitled("image/tiff"), untitled("application/pdf"), untitled("application/x-y")]).toEqual(["Untitled.png", "Untitled.jpg", "Untitled.tif", "Untitled.pdf", "Untitled"]);
  });
});

describe("dispositionFilename", () => {
  it("reads filename (token or quoted) and filename* (RFC 5987), filename* first; keeps the last path segment", () => {
    expect(dispositionFilename(undefined)).toBeUndefined();
    expect(dispositionFilename("inline")).toBeUndefined();
    expect(dispositionFilename("inline; filename=x.png")).toBe("x.png");
    expect(dispositionFilename('inline; filename="a \\"b\\"; c.png"')).toBe('a "b"; c.png');
    expect(dispositionFilename("attachment; FILENAME*=UTF-8''%E2%82%AC%20x.pdf; filename=plain.pdf")).toBe("€ x.pdf");
    expect(dispositionFilename("inline; filename*=iso-8859-1'en'%E9t%E9.png")).toBe("été.png");
    expect(dispositionFilename('inline; filename="../../etc/x.png"')).toBe("x.png");
    expect(dispositionFilename("inline; filename=C:\\dir\\y.gif")).toBe("y.gif");
  });

  it("refuses malformed headers with 400 -1002, quoting the header", () => {
    for (const h of ["inline; filename", 'inline; filename="open', "inline; filename*=x.png", "inline; filename*=UTF-8''%FF.png", "inline; filename*=UTF-8''a b.png", "inline; filename*=koi8-r''x.png", 'inline; filename=".."']) {
      expectODataError(() => dispositionFilename(h), 400, "-1002", /^Error: Content-Disposition '/);
    }
  });

  it("writes attachment names back, with filename* for names that are not plain ASCII", () => {
    expect(attachmentDisposition("a.png")).toBe('attachment; filename="a.png"');
    expect(attachmentDisposition('q"\\.png')).toBe('attachment; filename="q\\"\\\\.png"');
    expect(attachmentDisposition("€.pdf")).toBe("attachment; filename=\"_.pdf\"; filename*=UTF-8''%E2%82%AC.pdf");
    expect(dispositionFilename(attachmentDisposition("€ und ü.pdf"))).toBe("€ und ü.pdf");
  });
});

describe("decodeBase64", () => {
  it("decodes padded RFC 4648 base64 and nothing else", () => {
    expect(decodeBase64("")).toEqual(new Uint8Array(0));
    expect(decodeBase64("QUJD")).toEqual(bytes("ABC"));
    expect(decodeBase64("QQ==")).toEqual(bytes("A"));
    expect(decodeBase64("+/8=")).toEqual(new Uint8Array([0xfb, 0xff]));
    for (const t of ["QQ", "QUJD\n", "QU JD", "QR==", "QUJD====", "Q===", "-_8=", "QUJ*"]) expect(decodeBase64(t), t).toBeUndefined();
  });
});
