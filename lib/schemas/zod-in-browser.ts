import { z } from "zod";

// zod probes for eval (`new Function("")`) when it builds an object schema, to compile a faster parser. Under the
// dashboard's Content-Security-Policy (no 'unsafe-eval') the browser reports that probe as a violation even though
// zod catches the error, so in the browser zod is told not to try. Imported first by modules whose schemas reach
// client components (the event registry's declarations); the server keeps zod's compiled parsers.
if (typeof window !== "undefined") z.config({ jitless: true });
