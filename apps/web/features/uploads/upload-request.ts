import {
  errorResponseSchema,
  type UploadedFile,
  type UploadUse,
  uploadedFileSchema,
} from "@salelink/contracts";
import { ApiError } from "@/lib/api.ts";

export class UploadAborted extends Error {
  constructor() {
    super("Upload aborted");
  }
}

export interface UploadHandle {
  done: Promise<UploadedFile>;
  abort: () => void;
}

/**
 * `POST /upload?use=…` through XMLHttpRequest, the one browser API that reports upload progress.
 * Same conventions as lib/api.ts: credentials, the page's language, ApiError with the API's format.
 */
export function sendUpload(
  apiUrl: string,
  use: UploadUse,
  file: File,
  onProgress: (fraction: number) => void,
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const done = new Promise<UploadedFile>((resolve, reject) => {
    xhr.open("POST", `${apiUrl}/upload?use=${encodeURIComponent(use)}`);
    xhr.withCredentials = true;
    xhr.responseType = "text";
    const lang = document.documentElement.lang;
    if (lang) xhr.setRequestHeader("x-locale", lang);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onabort = () => reject(new UploadAborted());
    xhr.onerror = () => reject(new ApiError(0, null));
    xhr.onload = () => {
      let json: unknown = null;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        json = null;
      }
      if (xhr.status === 201) {
        const parsed = uploadedFileSchema.safeParse(json);
        if (parsed.success) resolve(parsed.data);
        else reject(new ApiError(xhr.status, null));
        return;
      }
      const error = errorResponseSchema.safeParse(json);
      reject(new ApiError(xhr.status, error.success ? error.data : null));
    };
    const body = new FormData();
    body.append("file", file, file.name);
    xhr.send(body);
  });
  return { done, abort: () => xhr.abort() };
}
