import { z } from "zod";

export const WorkspaceName = z.string().trim().min(1, "must be 1–100 characters").max(100, "must be 1–100 characters");

export const UpdateAccountInput = z.strictObject({ name: WorkspaceName });
export type UpdateAccountInput = z.infer<typeof UpdateAccountInput>;

/** A person who signs in to the account's dashboard (never the password hash). */
export interface AccountMember {
  id: string;
  email: string;
  name: string | null;
  createdAt: Date;
  lastSignInAt: Date | null;
}
