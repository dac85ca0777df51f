import { buildIfStale } from "@/scripts/build";

/** Builds the app first when the build is missing or stale (the servers run the production build). */
export default function setup() {
  buildIfStale();
}
