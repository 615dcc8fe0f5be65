"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRef } from "react";
import {
  type DefaultValues,
  type FieldValues,
  type FieldErrors as FormStateErrors,
  type Resolver,
  type UseFormReturn,
  useForm,
} from "react-hook-form";
import type { z } from "zod";
import { apiFieldErrors, type FieldErrors } from "@/lib/form-errors.ts";

/** How one form turns its fields into the contract's request and the contract's paths back into fields. */
export interface ContractRules<TForm extends FieldValues, TBody> {
  /** The request contract from `@salelink/contracts` (create or update). */
  schema: z.ZodType<TBody>;
  /** The form's values (and the state outside it: uploads, a chosen currency) → the request body. */
  toBody: (values: TForm) => unknown;
  /** A contract or API path ("priceMinor", "socialLinks.2") → the form field showing it; top level by default. */
  fieldOf?: (path: string) => string;
  /**
   * The translated message for a field the contract refused, from the web's catalogue, by the issue's
   * code (or, where one code covers several rules, the contract's English text, never shown).
   */
  message: (field: string, code: string, contractText: string) => string;
  /**
   * Rules the contract cannot know (the operator's price range, an age): field → message, merged over
   * the contract's; given the parsed request when the contract took it, else null.
   */
  check?: (values: TForm, body: TBody | null) => FieldErrors;
}

/** "socialLinks.2" → "socialLinks"; a refusal of the whole body is the form's. */
const topLevel = (path: string) => (path === "" ? "form" : (path.split(".")[0] ?? path));

interface ErrorLeaf {
  path: string;
  type: string;
  message: string;
}

/** The leaves of react-hook-form's nested errors, by dotted path ("socialLinks.2"), first one first. */
export function errorLeaves(errors: object, prefix = ""): ErrorLeaf[] {
  const out: ErrorLeaf[] = [];
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== "object") continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const { type, message } = value as { type?: unknown; message?: unknown };
    if (typeof type === "string")
      out.push({ path, type, message: typeof message === "string" ? message : "" });
    else out.push(...errorLeaves(value, path));
  }
  return out;
}

/** The first message per form field, from paths of the contract or of the API. */
export function toFormErrors(errors: FieldErrors, fieldOf: (path: string) => string = topLevel): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, message] of Object.entries(errors)) out[fieldOf(path)] ??= message;
  return out;
}

/**
 * A react-hook-form resolver that checks the request the form will send with the contract (through
 * `zodResolver`), in the user's language, and hands the parsed request to the submit handler.
 */
export function contractResolver<TForm extends FieldValues, TBody>(
  rules: () => ContractRules<TForm, TBody>,
): Resolver<TForm, unknown, TBody> {
  return async (values, context, options) => {
    const { schema, toBody, fieldOf = topLevel, message, check } = rules();
    const resolve = zodResolver(schema as z.ZodType<TBody, FieldValues>);
    const result = await resolve(toBody(values) as FieldValues, context, { ...options, fields: {} });
    // The contract's own (English) texts are dropped: the message is the catalogue's, per field and code.
    const errors: FieldErrors = {};
    for (const { path, type, message: contractText } of errorLeaves(result.errors)) {
      const field = fieldOf(path);
      errors[field] ??= message(field, type, contractText);
    }
    const contractOk = Object.keys(errors).length === 0;
    Object.assign(errors, check?.(values, contractOk ? (result.values as TBody) : null));
    if (Object.keys(errors).length === 0) return { values: result.values as TBody, errors: {} };
    const nested: FormStateErrors<TForm> = {};
    for (const [field, text] of Object.entries(errors)) {
      (nested as Record<string, { type: string; message: string }>)[field] = {
        type: "contract",
        message: text,
      };
    }
    return { values: {}, errors: nested };
  };
}

/** What the API's refusal shows: its field errors on the form's fields, else the form's top message. */
export function apiFailureErrors(
  err: unknown,
  failed: string | ((err: unknown) => string),
  fieldOf: (path: string) => string = topLevel,
): FieldErrors {
  const fields = toFormErrors(apiFieldErrors(err), fieldOf);
  if (Object.keys(fields).length > 0) return fields;
  return { form: typeof failed === "string" ? failed : failed(err) };
}

/** A group of checkboxes' value: react-hook-form reads a lone box as its value (or false), several as a list. */
export function checkedValues(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === "string" && value !== "" ? [value] : [];
}

export interface ContractFormOptions<TForm extends FieldValues, TBody> extends ContractRules<TForm, TBody> {
  defaultValues: DefaultValues<TForm>;
  /** Calls the API with the checked request; what it throws lands on the fields. */
  submit: (body: TBody) => Promise<unknown>;
  /** The form's top message when the API's refusal names no field (or how to word it from the error). */
  failed: string | ((err: unknown) => string);
  /**
   * Overrides how a refusal shows (a wrong old password gets the form's own text, `{}` when the screen
   * handled it itself); given what apiFailureErrors would show.
   */
  onFailure?: (err: unknown, errors: FieldErrors) => FieldErrors | undefined;
}

export interface ContractForm<TForm extends FieldValues, TBody> {
  form: UseFormReturn<TForm, unknown, TBody>;
  register: UseFormReturn<TForm, unknown, TBody>["register"];
  /** One message per field, and `form` for the top message, as the fields show them. */
  errors: FieldErrors;
  pending: boolean;
  onSubmit: (event?: React.BaseSyntheticEvent) => Promise<void>;
}

/**
 * Every dashboard form's one pattern (issue 18, item 10): react-hook-form with the request contract
 * as its resolver. Checked on submit only, as the forms always were: a message stays until the next
 * try, and no field is focused behind the user's back.
 */
export function useContractForm<TForm extends FieldValues, TBody>(
  options: ContractFormOptions<TForm, TBody>,
): ContractForm<TForm, TBody> {
  // The rules close over the screen's state (uploads, currency): read the latest at submit time.
  const latest = useRef(options);
  latest.current = options;
  const resolver = useRef(contractResolver<TForm, TBody>(() => latest.current)).current;
  const form = useForm<TForm, unknown, TBody>({
    defaultValues: options.defaultValues,
    resolver,
    mode: "onSubmit",
    reValidateMode: "onSubmit",
    shouldFocusError: false,
  });

  const onSubmit = form.handleSubmit(async (body) => {
    const { submit, failed, fieldOf, onFailure } = latest.current;
    try {
      await submit(body);
    } catch (err) {
      const shown = apiFailureErrors(err, failed, fieldOf);
      for (const [field, message] of Object.entries(onFailure?.(err, shown) ?? shown)) {
        form.setError(field === "form" ? "root" : (field as never), { type: "api", message });
      }
    }
  });

  // Shown errors are the form's own: the resolver's and the API's, already per field; `root` is the top one.
  const errors: FieldErrors = {};
  for (const { path, message } of errorLeaves(form.formState.errors))
    errors[path === "root" ? "form" : path] ??= message;
  return {
    form,
    register: form.register,
    errors,
    pending: form.formState.isSubmitting,
    onSubmit,
  };
}
