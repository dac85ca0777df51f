import { Inngest } from "inngest";

// Reads INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY, INNGEST_BASE_URL and INNGEST_DEV from the environment.
export const inngest = new Inngest({ id: "fenceline" });
