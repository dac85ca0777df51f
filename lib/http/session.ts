import { getSession } from "@/lib/auth/session";
import { can, requiredRole, type Permission } from "@/lib/teams/roles";
import { ApiError } from "./errors";
import { toErrorResponse, type HandlerArgs, type RouteHandler } from "./handler";

/**
 * For the dashboard's own route handlers (downloads a page links to): the signed-in user's account as ctx, 401 in the
 * API's envelope without a session, and every error mapped like the API's. The handler then calls the same verb as
 * its /api/v1 twin. A role in the workspace without the handler's permission is refused with 403 `forbidden`.
 */
export function withSession(handler: (args: HandlerArgs & { userId: string }) => Promise<Response>, opts: { permission: Permission }): RouteHandler {
  return async (req, context) => {
    try {
      const session = await getSession();
      if (!session) throw new ApiError("unauthorized", "Not signed in: sign in to the dashboard first");
      if (!can(session.role, opts.permission)) {
        throw new ApiError("forbidden", `You need the ${requiredRole(opts.permission)} role in this workspace to do this`);
      }
      return await handler({ req, ctx: session.ctx, userId: session.user.id, params: await context.params });
    } catch (err) {
      return toErrorResponse(err, req);
    }
  };
}
