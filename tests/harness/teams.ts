import { baseUrl } from "./client";
import { postAction, signIn, signUpUser, uniqueEmail } from "./dashboard";

// Workspaces with members of each role, made as people make them: the owner signs up and invites, each invitee signs
// up with the invited address, signs in and accepts the link (the dashboard's own server actions over HTTP).

export type Role = "owner" | "admin" | "member" | "viewer";

export interface TestMember {
  email: string;
  password: string;
  /** The signed-in session's cookies. */
  cookie: string;
}

/** Posts one of the member, invitation or switcher actions (lib/teams/actions.ts) from a page that uses it; the raw response. */
export const teamsAction = (name: string, args: unknown[], cookie: string) => postAction(baseUrl(), { file: "lib/teams/actions.ts", name, args, cookie });

/** The result object of a server action's RSC response (the line of its `{"ok":…}`; the rest is the page re-rendered). */
export function actionResult<T = any>(text: string): T {
  const line = text.split("\n").find((l) => /^\w+:\{"ok":/.test(l));
  if (!line) throw new Error(`no action result in: ${text.slice(0, 300)}`);
  return JSON.parse(line.slice(line.indexOf(":") + 1)) as T;
}

export async function signedUp(name: string, email = uniqueEmail(name)): Promise<TestMember> {
  const user = await signUpUser(baseUrl(), email);
  const session = await signIn(baseUrl(), user.email, user.password);
  if (!session.ok) throw new Error(`sign-in of ${email} failed: ${session.error}`);
  return { ...user, cookie: session.cookie };
}

/** The owner invites an address with a role; the link's token. */
export async function invite(owner: TestMember, email: string, role: Exclude<Role, "owner">): Promise<{ token: string; link: string; result: any }> {
  const res = await teamsAction("inviteMemberAction", [{ email, role }], owner.cookie);
  const result = actionResult(res.text);
  if (!result.ok) throw new Error(`invitation failed: ${res.text.slice(0, 300)}`);
  const link = result.data.link as string;
  return { token: link.slice(link.lastIndexOf("/") + 1), link, result };
}

/** A new user invited with `role`, signed up, signed in, who accepted: their dashboard now opens the owner's workspace. */
export async function joined(owner: TestMember, role: Exclude<Role, "owner">): Promise<TestMember> {
  const email = uniqueEmail(role);
  const { token } = await invite(owner, email, role);
  const member = await signedUp(role, email);
  const res = await teamsAction("acceptInvitationAction", [{ token }], member.cookie);
  if (!actionResult(res.text).ok) throw new Error(`acceptance failed: ${res.text.slice(0, 300)}`);
  return member;
}

/** A workspace with one member of each role. */
export async function team(): Promise<Record<Role, TestMember>> {
  const owner = await signedUp("owner");
  const [admin, member, viewer] = await Promise.all([joined(owner, "admin"), joined(owner, "member"), joined(owner, "viewer")]);
  return { owner, admin: admin!, member: member!, viewer: viewer! };
}
