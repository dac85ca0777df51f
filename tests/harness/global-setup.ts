import type { TestProject } from "vitest/node";
import { buildIfStale } from "@/scripts/build";
import { startServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminToken: string;
  }
}

export default async function setup(project: TestProject) {
  buildIfStale();
  const server = await startServer();
  project.provide("baseUrl", server.baseUrl);
  project.provide("adminToken", server.adminToken);
  return async () => {
    const logs = server.logs();
    await server.stop();
    if (process.env.SHOW_SERVER_LOGS) console.log(logs);
  };
}
