/** Holds the id of the workspace the dashboard shows in this browser; checked against the user's memberships on every request. */
export const WORKSPACE_COOKIE = "fl_workspace";
