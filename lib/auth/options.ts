import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import { env } from "@/lib/config/env";
import { persistedSecret } from "@/lib/config/secrets";
import { getDb } from "@/lib/db/client";
import { clientIp } from "@/lib/http/client-ip";
import { getLimiter } from "@/lib/rate-limit";
import { SignInInput } from "./schemas";
import { findOrCreateOAuthUser, verifyCredentials } from "./users";

// next-auth v4 builds its callback URLs from NEXTAUTH_URL; ours is APP_URL.
process.env.NEXTAUTH_URL ??= env().APP_URL;

/** AUTH_SECRET, or one generated on first start and kept in the data directory. */
export const authSecret = (): string => env().AUTH_SECRET ?? persistedSecret("auth-secret");

// Brute force is slowed per address tried and per client: 10 attempts per email and SIGNIN_RATE_LIMIT_PER_IP (30) per
// IP in 10 minutes. Sign-ups: SIGNUP_RATE_LIMIT_PER_IP (10) per IP an hour.
export const signInLimits = {
  email: () => getLimiter("signin-email", 10, 600),
  ip: () => getLimiter("signin-ip", env().SIGNIN_RATE_LIMIT_PER_IP, 600),
};
export const signUpLimiter = () => getLimiter("signup-ip", env().SIGNUP_RATE_LIMIT_PER_IP, 3600);

export class SignInThrottledError extends Error {
  constructor(retryAfterS: number) {
    super(`Too many sign-in attempts. Try again in ${Math.ceil(retryAfterS / 60)} minute(s).`);
  }
}

function providers(): AuthOptions["providers"] {
  const e = env();
  const list: AuthOptions["providers"] = [
    CredentialsProvider({
      name: "Email",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const parsed = SignInInput.safeParse(credentials ?? {});
        if (!parsed.success) return null;
        const { email, password } = parsed.data;
        // The client first, the email only when the client is within its limit: a client already refused cannot go
        // on spending (and so keep locking) a victim's per-email budget.
        const now = Date.now();
        for (const check of [() => signInLimits.ip().limit(clientIp(req.headers ?? {})), () => signInLimits.email().limit(email)]) {
          const verdict = await check();
          if (!verdict.success) throw new SignInThrottledError((verdict.reset - now) / 1000);
        }
        const user = await verifyCredentials(await getDb(), email, password);
        return user ? { id: user.id, email: user.email, name: user.name } : null;
      },
    }),
  ];
  if (e.AUTH_GITHUB_ID && e.AUTH_GITHUB_SECRET) {
    list.push(GitHubProvider({ clientId: e.AUTH_GITHUB_ID, clientSecret: e.AUTH_GITHUB_SECRET }));
  }
  if (e.AUTH_GOOGLE_ID && e.AUTH_GOOGLE_SECRET) {
    list.push(GoogleProvider({ clientId: e.AUTH_GOOGLE_ID, clientSecret: e.AUTH_GOOGLE_SECRET }));
  }
  return list;
}

/** The OAuth providers that are switched on, for the sign-in page's buttons. */
export function oauthProviders(): { id: "github" | "google"; name: string }[] {
  const e = env();
  const list: { id: "github" | "google"; name: string }[] = [];
  if (e.AUTH_GITHUB_ID && e.AUTH_GITHUB_SECRET) list.push({ id: "github", name: "GitHub" });
  if (e.AUTH_GOOGLE_ID && e.AUTH_GOOGLE_SECRET) list.push({ id: "google", name: "Google" });
  return list;
}

let cached: AuthOptions | undefined;

export function authOptions(): AuthOptions {
  return (cached ??= {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: providers(),
    callbacks: {
      async signIn({ user, account, profile }) {
        if (!account || account.provider === "credentials") return true;
        // OAuth: only a verified address may claim an account (GitHub returns its primary, verified email).
        const verified = account.provider !== "google" || (profile as { email_verified?: boolean }).email_verified;
        return Boolean(user.email && verified);
      },
      async jwt({ token, user, account }) {
        if (user && account) {
          const row =
            account.provider === "credentials"
              ? { id: user.id }
              : await findOrCreateOAuthUser(await getDb(), user.email!.toLowerCase(), user.name ?? null);
          token.uid = row.id;
        }
        return token;
      },
      async session({ session, token }) {
        return { ...session, uid: token.uid };
      },
    },
  });
}
