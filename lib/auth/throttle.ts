import { env } from "@/lib/config/env";
import { getLimiter } from "@/lib/rate-limit";

// Password guesses are slowed per client and per address tried, in 10-minute windows, wherever a password is checked
// (sign-in and the current password of "Change password", which share these budgets):
// - per client address: SIGNIN_RATE_LIMIT_PER_IP (30) attempts, then refused;
// - per (email, client address): 10 attempts, then refused: a stranger locks only themselves out, never the owner;
// - per email, from every client together: SIGNIN_SLOWDOWN_AFTER (50) attempts, after which each further attempt for
//   that email waits SIGNIN_SLOWDOWN_MS first: a distributed guesser is slowed, the owner can still sign in.
export const SIGNIN_WINDOW_S = 600;
export const SIGNIN_PER_EMAIL_AND_IP = 10;
export const SIGNIN_SLOWDOWN_AFTER = 50;
export const SIGNIN_SLOWDOWN_MS = 2_000;
export const signInLimits = {
  ip: () => getLimiter("signin-ip", env().SIGNIN_RATE_LIMIT_PER_IP, SIGNIN_WINDOW_S),
  emailAndIp: () => getLimiter("signin-email-ip", SIGNIN_PER_EMAIL_AND_IP, SIGNIN_WINDOW_S),
  email: () => getLimiter("signin-email", SIGNIN_SLOWDOWN_AFTER, SIGNIN_WINDOW_S),
};

/** A password check refused by the limits; `what` names the attempts ("sign-in", "password"). */
export class PasswordThrottledError extends Error {
  constructor(
    what: string,
    readonly retryAfterS: number,
  ) {
    super(`Too many ${what} attempts. Try again in ${Math.ceil(retryAfterS / 60)} minute(s).`);
    this.name = "PasswordThrottledError";
  }
}

/**
 * Counts one password attempt for `email` from client address `ip` against the limits above: throws
 * PasswordThrottledError when the client or the pair is over its budget, waits SIGNIN_SLOWDOWN_MS when the email is.
 */
export async function throttlePasswordAttempt(email: string, ip: string, what: string): Promise<void> {
  // The client first, then the pair: a client already refused cannot go on spending the email's budgets.
  const now = Date.now();
  for (const check of [() => signInLimits.ip().limit(ip), () => signInLimits.emailAndIp().limit(`${email} ${ip}`)]) {
    const verdict = await check();
    if (!verdict.success) throw new PasswordThrottledError(what, (verdict.reset - now) / 1000);
  }
  if (!(await signInLimits.email().limit(email)).success) await new Promise((r) => setTimeout(r, SIGNIN_SLOWDOWN_MS));
}
