import { NextResponse, type NextRequest } from "next/server";
import { REQUEST_PATH_HEADER } from "@/lib/auth/callback-url";

/**
 * Hands each page request's path and query to the page (as a request header, replacing any the client sent), so a
 * dashboard page that finds no session can send the visitor to /sign-in?callbackUrl=<that page> and back after.
 */
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(REQUEST_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

// Pages only: not the API, Next.js's assets, the public share and docs pages or the sign-in pages themselves (nor
// the reset and invitation pages, whose tokens stay out of that header).
export const config = {
  matcher: ["/((?!api/|_next/|share/|docs/|sign-in|sign-up|forgot-password|reset-password|invitations/|icon\\.svg|favicon\\.ico).+)"],
};
