import { uploadedFileSchema } from "@salelink/contracts";
import type { LightMyRequestResponse } from "fastify";
import { multipart } from "../support/uploads.ts";
import { PNG } from "./access-fixtures.ts";
import type { FuzzCase } from "./fuzz-cases.ts";

/** Multipart tricks for `POST /upload`: hostile file names, sizes, parts and framing. */
export function uploadCases(): FuzzCase[] {
  const names = [
    "../../etc/passwd",
    "..\\..\\x.png",
    "/etc/passwd",
    "C:\\x.png",
    "a\u0000.png",
    "😀\u202E.png",
    "x".repeat(5000),
  ];
  const cases: FuzzCase[] = names.map((filename) => {
    const { body, contentType } = multipart([{ filename, contentType: "image/png", data: PNG }]);
    return {
      label: `file name ${filename.slice(0, 30)}`,
      url: "/upload?use=cover",
      payload: body,
      headers: { "content-type": contentType },
    };
  });
  const form = (parts: Parameters<typeof multipart>[0], url = "/upload?use=avatar") => {
    const { body, contentType } = multipart(parts);
    return { url, payload: body, headers: { "content-type": contentType } };
  };
  const big = Buffer.alloc(12 * 1024 * 1024, 0x41);
  cases.push(
    {
      label: "file far above the limit",
      ...form([{ filename: "big.png", data: Buffer.concat([PNG, big]) }]),
    },
    {
      label: "two files",
      ...form([
        { filename: "a.png", data: PNG },
        { filename: "b.png", data: PNG },
      ]),
    },
    { label: "wrong field name", ...form([{ field: "other", filename: "a.png", data: PNG }]) },
    { label: "empty file", ...form([{ filename: "a.png", data: Buffer.alloc(0) }]) },
    {
      label: "not an image",
      ...form([{ filename: "a.png", contentType: "image/png", data: Buffer.from("MZ\x90\x00 not a png") }]),
    },
    { label: "unknown use", ...form([{ filename: "a.png", data: PNG }], "/upload?use=../../x") },
    {
      label: "no boundary",
      url: "/upload",
      payload: "--x\r\n",
      headers: { "content-type": "multipart/form-data" },
    },
    {
      label: "truncated multipart",
      url: "/upload",
      payload: Buffer.from(
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG',
      ),
      headers: { "content-type": "multipart/form-data; boundary=b" },
    },
    { label: "JSON instead of multipart", url: "/upload", payload: { file: "a.png" } },
  );
  return cases;
}

/** A stored file's name keeps no trace of a path: no separator, no parent step, no NUL. */
export function storedNameProblems(res: LightMyRequestResponse): string[] {
  const { originalName } = uploadedFileSchema.parse(res.json());
  const unsafe = originalName.includes("/") || originalName.includes("\\") || originalName.includes("\u0000");
  return unsafe || /^\.\.?$/.test(originalName) ? [`stored name ${JSON.stringify(originalName)}`] : [];
}
