import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { CreateGeofenceInput } from "@/lib/geofences/schemas";
import { CreateWebhookInput, RotateSecretInput, UpdateWebhookInput } from "./schemas";
import { generateWebhookSecret, standardSignatureHeader } from "./signature";

// A whsec_ secret is decoded by Standard Webhooks libraries: only canonical padded base64 gives them the key this
// server signs with, so anything else is refused when it is saved, naming the field.

const REFUSED = [
  "whsec_test_0123456789", // "_" and "-" are base64url, not base64
  "whsec_a-b_cdef",
  "whsec_QUI", // unpadded
  "whsec_QR==", // bits after the last byte are not zero: decodes like whsec_QQ==
  "whsec_QUJDRA=", // padded wrongly
  "whsec_QUJD RA==",
  "whsec_QUJDRA==QUJD", // padding in the middle
  "whsec_====", // nothing but padding
];
const ACCEPTED = ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_QQ==", "whsec_QUI=", "whsec_5f2b9c0e1d7a4e3b", generateWebhookSecret()];

const fence = { name: "F", latitude: 52.52, longitude: 13.405, radius: 100 };
const doors: [string, (secret: string) => z.ZodSafeParseResult<unknown>][] = [
  ["webhookSecret", (secret) => CreateGeofenceInput.safeParse({ ...fence, webhookSecret: secret })],
  ["secret", (secret) => CreateWebhookInput.safeParse({ url: "https://example.com/h", events: ["location.updated"], secret })],
  ["secret", (secret) => UpdateWebhookInput.safeParse({ secret })],
  ["secret", (secret) => RotateSecretInput.safeParse({ secret })],
];

describe("webhook secrets that start with whsec_", () => {
  it.each(REFUSED)("%s is refused wherever a secret is saved, naming the field and the form it must have", (secret) => {
    for (const [field, parse] of doors) {
      const r = parse(secret);
      expect(r.success, `${field}: ${secret}`).toBe(false);
      const issue = r.error!.issues.find((i) => i.path.join(".") === field);
      expect(issue?.message).toMatch(/^starts with "whsec_", so the rest must be standard base64 .* padded with "=" to a multiple of 4 characters/);
    }
  });

  it.each(ACCEPTED)("%s is accepted, and the standardwebhooks library verifies what it signs", (secret) => {
    for (const [field, parse] of doors) expect(parse(secret).success, field).toBe(true);
    const body = JSON.stringify({ type: "location.updated", data: { latitude: 52.52 } });
    const id = "msg_2b8c";
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": standardSignatureHeader(id, timestamp, body, [secret]) };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("any other secret of 8–256 characters is used as given", () => {
    for (const [field, parse] of doors) expect(parse("my-long-secret_with-any chars").success, field).toBe(true);
  });
});
