"use client";

import type { FileKind, UploadedFile, UploadUse } from "@salelink/contracts";
import { useLocale, useTranslations } from "next-intl";
import { type ChangeEvent, type DragEvent, useEffect, useRef, useState } from "react";
import { formatBytes } from "@/components/ui/format-size.ts";
import { ApiError } from "@/lib/api.ts";
import { runtimeConfig } from "@/lib/runtime-config.ts";
import { toast } from "@/lib/toast.ts";
import { StorageUsage, useStorageUsage } from "./storage-usage.tsx";
import {
  type CheckResult,
  checkSelection,
  type Rejection,
  rulesFor,
  SNIFF_LENGTH,
  serverRejection,
  sniffKind,
} from "./upload-checks.ts";
import { sendUpload, UploadAborted, type UploadHandle } from "./upload-request.ts";
import "./uploads.css";

/** What the field holds: a file just uploaded, or one already attached (name unknown for covers). */
export interface UploadValue {
  id: string;
  name: string | null;
  sizeBytes: number | null;
  kind: FileKind | null;
  /** An image to show for it (absolute URL), if any. */
  thumbnail: string | null;
}

export const uploadValueOf = (file: UploadedFile): UploadValue => ({
  id: file.id,
  name: file.originalName,
  sizeBytes: file.sizeBytes,
  kind: file.kind,
  thumbnail: null,
});

/** What the browser's file picker offers first for each kind (a hint only: anything can be dropped). */
const pickerTypes: Record<FileKind, string> = {
  image: "image/*",
  video: "video/*",
  audio: "audio/*",
  pdf: "application/pdf",
  archive: ".zip,.gz,.7z,.rar",
  other: "*/*",
};

type Progress = { name: string; fraction: number; handle: UploadHandle | null };

/**
 * A file field that uploads at once (`POST /upload?use=…`) with progress and a Cancel button, after
 * the same checks the API makes. A real file input with its label; dropping a file is an extra.
 */
export function FileUpload({
  id,
  label,
  use,
  value,
  onChange,
  onBusyChange,
  error,
  hint,
  removable = true,
}: {
  id: string;
  label: string;
  use: UploadUse;
  value: UploadValue | null;
  onChange: (value: UploadValue | null) => void;
  onBusyChange?: (busy: boolean) => void;
  /** A form-level error for this field (e.g. from the API when saving). */
  error?: string;
  hint?: string;
  removable?: boolean;
}) {
  const t = useTranslations("upload");
  const locale = useLocale();
  const rules = rulesFor(use);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [rejection, setRejection] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const handleRef = useRef<UploadHandle | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const { usage, refresh: refreshUsage } = useStorageUsage();

  // An upload still running when the form closes is abandoned.
  useEffect(() => () => handleRef.current?.abort(), []);

  function rejectionText(reason: Rejection): string {
    const accept = rules.accept;
    switch (reason) {
      case "invalidType":
        return accept
          ? t("errors.invalidTypeExpected", { types: accept.map((k) => t(`kinds.${k}`)).join(", ") })
          : t("errors.invalidType");
      case "tooLarge":
        return t("errors.tooLargeMax", { size: formatBytes(rules.maxBytes, locale) });
      case "tooSmall":
        return t("errors.tooSmallMin", { size: formatBytes(rules.minBytes, locale) });
      case "maxTotalSize":
        // The account's storage quota (issue 16), as the API counts it.
        return usage
          ? t("storageFull", { quota: formatBytes(usage.quotaBytes, locale) })
          : t("errors.maxTotalSize");
      case "maxFiles":
        return t("errors.maxFiles");
    }
  }

  function setBusy(next: Progress | null) {
    setProgress(next);
    onBusyChange?.(next !== null);
  }

  async function accept(files: File[]) {
    setRejection(null);
    if (files.length === 0) return;
    const candidates = await Promise.all(
      files.map(async (file) => ({
        size: file.size,
        kind: sniffKind(new Uint8Array(await file.slice(0, SNIFF_LENGTH).arrayBuffer()), file.type),
      })),
    );
    const check: CheckResult = checkSelection(candidates, rules);
    if (!check.ok) {
      if (check.reason === "maxFiles") {
        toast.warning(t("errors.maxFiles"), { description: t("maxFilesHint", { count: rules.maxFiles }) });
      } else {
        setRejection(rejectionText(check.reason));
      }
      return;
    }
    // One file per request (the API's rule); `maxFiles` is 1 for every use today.
    for (const file of files) await upload(file);
  }

  async function upload(file: File) {
    setBusy({ name: file.name, fraction: 0, handle: null });
    try {
      const { apiUrl } = await runtimeConfig();
      const handle = sendUpload(apiUrl, use, file, (fraction) =>
        setProgress((p) => (p ? { ...p, fraction } : p)),
      );
      handleRef.current = handle;
      setProgress((p) => (p ? { ...p, handle } : p));
      const uploaded = await handle.done;
      onChange(uploadValueOf(uploaded));
    } catch (err) {
      if (err instanceof UploadAborted) {
        toast.info(t("cancelled"));
      } else if (err instanceof ApiError && err.status === 429) {
        // Too many uploads this hour: the API's message, in the caller's language, says when again.
        setRejection(err.body?.message ?? t("failed"));
      } else if (err instanceof ApiError) {
        const message = err.body?.errors?.file?.[0];
        const reason = serverRejection(message, err.status, (r) => t(`errors.${r}`));
        setRejection(reason ? rejectionText(reason) : (message ?? t("failed")));
      } else {
        setRejection(t("failed"));
      }
    } finally {
      handleRef.current = null;
      setBusy(null);
      refreshUsage();
    }
  }

  function onInput(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.currentTarget.files ?? []);
    // Cleared so that choosing the same file again (after a fix) is seen as a change.
    event.currentTarget.value = "";
    void accept(files);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (progress) return;
    void accept(Array.from(event.dataTransfer.files));
  }

  const message = rejection ?? error;
  const percent = progress ? Math.round(progress.fraction * 100) : 0;
  const describedBy = [
    hint ? `${id}-hint` : null,
    usage ? `${id}-usage` : null,
    message ? `${id}-error` : null,
  ]
    .filter(Boolean)
    .join(" ");

  return (
    <div className="field upload">
      <label htmlFor={id}>{label}</label>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is an extra; the file input inside is the accessible way. */}
      <div
        className="upload-drop"
        data-dragging={dragging || undefined}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        {value && !progress && (
          <div className="upload-current">
            {value.thumbnail && (
              // biome-ignore lint/performance/noImgElement: the API serves ready-sized renditions; no image optimiser.
              <img src={value.thumbnail} alt="" className="upload-thumb" />
            )}
            <span>
              {value.name ? <strong>{value.name}</strong> : <strong>{t("attached")}</strong>}
              {value.sizeBytes !== null && (
                <span className="muted"> ({formatBytes(value.sizeBytes, locale)})</span>
              )}
            </span>
            {removable && (
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => onChange(null)}>
                {t("remove")}
              </button>
            )}
          </div>
        )}
        {progress ? (
          <div className="upload-progress" role="status">
            <span>{t("uploading", { name: progress.name })}</span>
            <div className="upload-progress-row">
              <progress max={100} value={percent} aria-label={t("progress", { name: progress.name })} />
              <span>{percent}%</span>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                disabled={!progress.handle}
                onClick={() => progress.handle?.abort()}
              >
                {t("cancel")}
              </button>
            </div>
          </div>
        ) : (
          // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: a larger target for the mouse; keyboards reach the input itself.
          <div
            className="upload-pick"
            onClick={(event) => {
              if (event.target !== inputRef.current) inputRef.current?.click();
            }}
          >
            {/* The browser's own button text would stay in its language: ours is drawn beside it. */}
            <input
              ref={inputRef}
              id={id}
              type="file"
              className="upload-input"
              accept={rules.accept ? rules.accept.map((k) => pickerTypes[k]).join(",") : undefined}
              multiple={rules.maxFiles > 1}
              aria-invalid={Boolean(message)}
              aria-describedby={describedBy || undefined}
              onChange={onInput}
            />
            <span className="btn btn-ghost btn-sm upload-button" aria-hidden="true">
              {value ? t("replace") : t("choose")}
            </span>
            <span className="muted">{t("dropHint")}</span>
          </div>
        )}
      </div>
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
      <StorageUsage id={`${id}-usage`} usage={usage} />
      {message && (
        <small id={`${id}-error`} className="field-error" role="alert">
          {message}
        </small>
      )}
    </div>
  );
}
