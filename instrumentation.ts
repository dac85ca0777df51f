// Runs once when a server process boots (Node.js runtime only; see lib/server/boot.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { boot } = await import("@/lib/server/boot");
    await boot();
  }
}
