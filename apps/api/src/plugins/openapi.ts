import type { SwaggerTransform } from "@fastify/swagger";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/** The JSON schema of one part of a `multipart/form-data` body, as OpenAPI documents it. */
export interface MultipartField {
  type: "string";
  format?: "binary";
  description?: string;
}

/**
 * A route's OpenAPI entry with a multipart request body. Such a route declares no body schema,
 * because it streams its parts itself (a body schema would be validated against a body Fastify
 * never parses), so the document is told about the body here, in the route's own transform.
 */
export function multipartBodyDocs(
  fields: Record<string, MultipartField>,
  required: string[],
): SwaggerTransform {
  return (input) => {
    const out = jsonSchemaTransform(input);
    return {
      ...out,
      schema: {
        ...out.schema,
        consumes: ["multipart/form-data"],
        body: { type: "object", required, properties: fields },
      },
    };
  };
}
