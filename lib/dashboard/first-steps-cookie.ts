/** Holds the id of the workspace whose first-steps checklist was dismissed in this browser. */
export const FIRST_STEPS_COOKIE = "fl_first_steps_dismissed";
