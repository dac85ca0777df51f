// POST /api/internal/password-resets — a password reset link for `npm run user:reset-password`
import { ResetLinkInput, resetLinkFor } from "@/lib/auth/password-reset";
import { withAdminToken } from "@/lib/http/admin";
import { parseBody } from "@/lib/http/body";
import { json, route } from "@/lib/http/handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  POST: withAdminToken(async ({ req, db }) => json(await resetLinkFor(db, (await parseBody(req, ResetLinkInput)).email), 201)),
});
