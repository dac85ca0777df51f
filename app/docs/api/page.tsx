import type { Metadata } from "next";
import { ApiReference, type OpenApiDoc } from "@/components/api-reference/api-reference";
import { openApiDocument } from "@/lib/openapi/document";

export const metadata: Metadata = { title: "API reference" };

export default function ApiReferencePage() {
  // The generated document is plain JSON; the reference reads the subset of OpenAPI it renders.
  return <ApiReference doc={openApiDocument() as unknown as OpenApiDoc} />;
}
