import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import { env } from "@/lib/config/env";
import { authSecret } from "@/lib/config/secrets";
import { auditUser } from "@/lib/audit/users";
import { getDb } from "@/lib/db/client";
import { clientIp } from "@/lib/http/client-ip";
import { getLimiter } from "@/lib/rate-limit";
import { DEFAULT_AFTER_SIGN_IN, sameOriginPath } from "./callback-url";
import { SignInInput, TWO_FACTOR_INVALID, TWO_FACTOR_REQUIRED } from "./schemas";
import { verifySecondFactor } from "./two-factor";
import { throttlePasswordAttempt } from "./throttle";
import { endSessions, findOrCreateOAuthUser, verifyCredentials } from "./users";

// next-auth v4 builds its callback URLs from NEXTAUTH_URL; ours is APP_URL.
process.env.NEXTAUTH_URL ??= env().APP_URL;


export const signUpLimiter = () => getLimiter("signup-ip", env().SIGNUP_RATE_LIMIT_PER_IP, 3600);

function providers(): AuthOptions["providers"] {
  const e = env();
  const list: AuthOptions["providers"] = [
    CredentialsProvider({
      name: "Email",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
        code: { label: "Two-factor code", type: "text" },
      },
      async authorize(credentials, req) {
        const parsed = SignInInput.safeParse(credentials ?? {});
        if (!parsed.success) return null;
        const { email, password, code } = parsed.data;
        // Every attempt counts, with or without a code: wrong two-factor codes spend the same budgets as passwords.
        const address = clientIp(req.headers ?? {});
        await throttlePasswordAttempt(email, address, "sign-in");
        // A PasswordHashingBusyError's message reaches the form as is (next-auth passes an authorize error's message on).
        const db = await getDb();
        const user = await verifyCredentials(db, email, password);
        if (!user) return null;
        if (user.totpEnabledAt) {
          // Only after the right password: the form then asks for the code and sends all three again.
          if (!code) throw new Error(TWO_FACTOR_REQUIRED);
          if (!(await verifySecondFactor(db, user.id, code))) {
            await auditUser(db, user, address, { action: "user.twoFactorFailed" });
            throw new Error(TWO_FACTOR_INVALID);
          }
        }
        await auditUser(db, user, address, { action: "user.signedIn" });
        return { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
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

/** OAuth sign-in: the user (created on first sign-in), recorded in their workspace's audit log. */
async function oauthSignIn(email: string, name: string | null) {
  const db = await getDb();
  const user = await findOrCreateOAuthUser(db, email, name);
  await auditUser(db, user, null, { action: "user.signedIn" });
  return user;
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
      // After sign-in (and sign-out) only this site's own paths: anything else goes to the dashboard.
      async redirect({ url }) {
        const appUrl = env().APP_URL;
        return new URL(sameOriginPath(url, appUrl) ?? DEFAULT_AFTER_SIGN_IN, appUrl).toString();
      },
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
              ? { id: user.id, sessionVersion: (user as { sessionVersion?: number }).sessionVersion ?? 0 }
              : await oauthSignIn(user.email!.toLowerCase(), user.name ?? null);
          token.uid = row.id;
          // The user's session version when this session began: lib/auth/session.ts refuses the session once it moved.
          token.sv = row.sessionVersion;
        }
        return token;
      },
      async session({ session, token }) {
        return { ...session, uid: token.uid, sv: token.sv };
      },
    },
    events: {
      // Signing out ends every session of the user, including copies of this cookie.
      async signOut({ token }) {
        if (typeof token?.uid === "string") await endSessions(await getDb(), token.uid);
      },
    },
  });
}
