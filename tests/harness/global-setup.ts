import type { TestProject } from "vitest/node";
import { buildIfStale } from "@/scripts/build";
import { startServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminToken: string;
    adminSocket: string;
  }
}

export default async function setup(project: TestProject) {
  buildIfStale();
  // Every request of the suite comes from 127.0.0.1: lift the per-address budgets that tests of their own exercise on
  // servers of their own (sign-in, sign-up, failed API keys), or the suite's many 401 checks would lock the rest out.
  const server = await startServer({
    env: { SIGNIN_RATE_LIMIT_PER_IP: "100000", SIGNUP_RATE_LIMIT_PER_IP: "100000", AUTH_FAILURE_LIMIT_PER_IP: "100000" },
  });
  project.provide("baseUrl", server.baseUrl);
  project.provide("adminToken", server.adminToken);
  project.provide("adminSocket", server.adminSocket);
  return async () => {
    const logs = server.logs();
    await server.stop();
    if (process.env.SHOW_SERVER_LOGS) console.log(logs);
  };
}
