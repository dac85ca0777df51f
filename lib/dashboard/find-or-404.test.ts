import { describe, expect, it } from "vitest";
import { ApiError, notFound as notFoundError } from "@/lib/http/errors";
import { whileItExists } from "./find-or-404";

// next/navigation's notFound() throws an error whose digest Next's not-found boundary recognises.
const isNextNotFound = (err: unknown) => typeof (err as { digest?: unknown })?.digest === "string" && (err as { digest: string }).digest.includes("404");

describe("whileItExists", () => {
  const failing = () => Promise.reject(new ApiError("invalid_request", "Invalid query: trackableId: no such trackable"));

  it("returns what it loaded", async () => {
    expect(await whileItExists(async () => 42, async () => ({}))).toBe(42);
  });

  it("renders not-found when the object was deleted between the reads", async () => {
    const err = await whileItExists(failing, () => Promise.reject(notFoundError("Trackable", "x"))).catch((e: unknown) => e);
    expect(isNextNotFound(err)).toBe(true);
  });

  it("rethrows the load's error when the object is still there, or when the check fails for another reason", async () => {
    await expect(whileItExists(failing, async () => ({}))).rejects.toThrow("no such trackable");
    await expect(whileItExists(failing, () => Promise.reject(new Error("connection lost")))).rejects.toThrow("no such trackable");
  });
});
