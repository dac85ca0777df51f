// lib/http/body-worker.ts for a process that runs TypeScript (the tests, `next dev`, scripts under tsx): a worker
// thread does not inherit the tsx loader of its process, so this plain module loads the task through tsx's API. The
// built server uses body-worker.mjs from its bundle instead (scripts/build.ts).
import { tsImport } from "tsx/esm/api";

const task = await tsImport("./body-worker.ts", import.meta.url);

export default task.default;
