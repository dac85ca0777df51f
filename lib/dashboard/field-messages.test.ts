import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrorsFromIssues, fieldSentence } from "./field-messages";

const errorsOf = (schema: z.ZodType, input: unknown, labels?: Record<string, string>) => {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error("expected a failure");
  return fieldErrorsFromIssues(parsed.error.issues, (i) => [i.path.map(String).join(".")], labels);
};

describe("form errors as sentences", () => {
  it("leaves a polygon's ring-and-position messages to the geofence editor", () => {
    const m = "the outer ring intersects itself at [13.4, 52.5]";
    expect(fieldSentence("geometry.coordinates[0]", m)).toBe(m);
    expect(fieldSentence("geometry", "required")).toBe("required");
  });

  it("rewrites zod's own wording into a sentence that names the field", () => {
    const schema = z.object({ latitude: z.number().min(-90).max(90), name: z.string().min(1), events: z.array(z.string()).min(1), url: z.url() });
    const errors = errorsOf(schema, { latitude: 91, name: "", events: [], url: "nope" });
    expect(errors).toEqual({
      latitude: "Latitude must be at most 90.",
      name: "Name is required.",
      events: "Choose at least one of events.",
      url: "Endpoint URL must be a full URL, such as https://example.com/hooks.",
    });
    expect(errorsOf(z.object({ radius: z.number() }), {})).toEqual({ radius: "Radius is required." });
    expect(errorsOf(z.object({ exitBuffer: z.number() }), { exitBuffer: "x" })).toEqual({ exitBuffer: "Exit buffer must be a number." });
    for (const message of Object.values(errors)) expect(message).not.toMatch(/Too (small|big)|Invalid input|expected/);
  });

  it("keeps a schema's own message, completing a fragment with the field's label", () => {
    expect(errorsOf(z.object({ name: z.string().min(1, "must be 1–100 characters") }), { name: "" })).toEqual({ name: "Name must be 1–100 characters." });
    expect(errorsOf(z.object({ name: z.string().min(1, "must be 1–100 characters") }), { name: "" }, { name: "Workspace name" })).toEqual({
      name: "Workspace name must be 1–100 characters.",
    });
    expect(errorsOf(z.object({ email: z.email("Enter a valid email address") }), { email: "x" })).toEqual({ email: "Enter a valid email address." });
    expect(fieldSentence("webhookUrl", "must use https")).toBe("Webhook URL must use https.");
  });
});
