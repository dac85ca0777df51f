// GET/POST/PUT /api/inngest — Inngest's serve endpoint for the workflows (used only when INNGEST_* is configured)
import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";

export const { GET, POST, PUT } = serve({ client: inngest, functions });
