import { z } from "zod";

export const WorkspaceName = z.string().trim().min(1, "must be 1–100 characters").max(100, "must be 1–100 characters");

export const UpdateAccountInput = z.strictObject({ name: WorkspaceName });
export type UpdateAccountInput = z.infer<typeof UpdateAccountInput>;

/** Deleting the workspace: its name, typed to confirm. */
export const DeleteWorkspaceInput = z.strictObject({ name: z.string().trim().min(1, "type the workspace's name to confirm") });
export type DeleteWorkspaceInput = z.infer<typeof DeleteWorkspaceInput>;

/** A person who signs in to the account's dashboard (never the password hash), with their role in it. */
export interface AccountMember {
  id: string;
  email: string;
  name: string | null;
  role: "owner" | "admin" | "member" | "viewer";
  /** When they joined the workspace. */
  createdAt: Date;
  lastSignInAt: Date | null;
}

const RetentionDays = z
  .int("must be a whole number of days")
  .min(1, "must be at least 1 (null keeps forever)")
  .max(36_500, "must be at most 36500")
  .nullable();

export const Retention = z
  .object({
    locationDays: RetentionDays.meta({ description: "Locations older than this many days are deleted (each trackable's newest is kept); null: forever" }),
    eventDays: RetentionDays.meta({ description: "Events older than this many days are deleted; null: forever" }),
    deliveryDays: RetentionDays.meta({ description: "Webhook deliveries (with their attempts) older than this many days are deleted; null: forever" }),
  })
  .meta({ id: "Retention" });
export type Retention = z.infer<typeof Retention>;

export const Account = z
  .object({
    id: z.uuid(),
    name: z.string().meta({ example: "Acme Logistics" }),
    slug: z.string().meta({ example: "acme" }),
    plan: z.enum(["free", "enterprise"]),
    retention: Retention,
  })
  .meta({ id: "Account" });
export type Account = z.infer<typeof Account>;

export const PatchAccountInput = z
  .strictObject({
    name: WorkspaceName.optional(),
    retention: Retention.partial().strict().optional().meta({ description: "Only the fields sent change" }),
  })
  .meta({ id: "PatchAccountInput" });
export type PatchAccountInput = z.infer<typeof PatchAccountInput>;
