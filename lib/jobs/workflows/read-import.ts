import { z } from "zod";
import { failImport, readImport } from "@/lib/imports/imports";
import { defineWorkflow } from "../types";

/**
 * read-import: reads an uploaded history file (spooled under DATA_DIR) into its trackable, in steps of at most
 * 15 minutes each; a step run again (a retry, or a server that stopped mid-read and whose run was taken over) goes on from
 * the import's recorded progress, and resends are dropped, so reading again is safe. A step's last try that fails
 * ends the import as failed: no import stays running once its run is over.
 */
export const readImportFile = defineWorkflow({
  name: "read-import",
  event: "fenceline/import.uploaded",
  payload: z.object({ importId: z.uuid() }),
  retries: 3,
  async run({ importId }, io) {
    for (let step = 0; ; step++) {
      try {
        if (await io.runTask(`read-${step}`, () => readImport(importId))) return;
      } catch (err) {
        if (io.attempt + 1 >= io.maxAttempts) await failImport(importId, "An internal error stopped the import; what was stored before it stays");
        throw err;
      }
    }
  },
});
