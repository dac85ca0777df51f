import { z } from "zod";

export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "Email is too long")
  .pipe(z.email("Enter a valid email address"));

export const NewPassword = z.string().min(10, "Use at least 10 characters").max(200, "Use at most 200 characters");

export const SignUpInput = z.object({
  name: z.string().trim().max(100, "Name is at most 100 characters").optional(),
  email: Email,
  password: NewPassword,
});
export type SignUpInput = z.infer<typeof SignUpInput>;

export const SignInInput = z.object({
  email: Email,
  password: z.string().min(1, "Enter your password").max(200),
  // The second factor of a user with two-factor sign-in on: a TOTP code or a recovery code.
  code: z.string().trim().max(64).optional(),
});

/** The sign-in errors the form answers by asking for (another) two-factor code. */
export const TWO_FACTOR_REQUIRED = "TwoFactorRequired";
export const TWO_FACTOR_INVALID = "TwoFactorInvalid";
export type SignInInput = z.infer<typeof SignInInput>;

export const ChangePasswordInput = z.object({
  currentPassword: z.string().min(1, "Enter your current password").max(200),
  newPassword: NewPassword,
});
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

export const ForgotPasswordInput = z.object({ email: Email });
export type ForgotPasswordInput = z.infer<typeof ForgotPasswordInput>;

export const ResetPasswordInput = z.object({
  token: z.string().min(1, "The link is incomplete: open it again from the mail").max(200),
  password: NewPassword,
});
export type ResetPasswordInput = z.infer<typeof ResetPasswordInput>;
