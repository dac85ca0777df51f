import { notFound } from "next/navigation";
import { ApiError } from "@/lib/http/errors";
import { Id } from "@/lib/schemas/common";

/**
 * Loads one of the account's objects for a dashboard page, or renders the not-found page: a malformed id, an unknown
 * one and another account's (which the verbs report as not_found) all look the same.
 */
export async function findOr404<T>(id: string, load: (id: string) => Promise<T>): Promise<T> {
  if (!Id.safeParse(id).success) notFound();
  try {
    return await load(id);
  } catch (err) {
    if (err instanceof ApiError && err.code === "not_found") notFound();
    throw err;
  }
}

/**
 * Loads what a page shows beside the object it found. When that object is deleted between the two reads (in another
 * tab, through the API), the reads that name it fail; the page is then not found rather than broken. Any other
 * failure is rethrown.
 */
export async function whileItExists<T>(load: () => Promise<T>, stillThere: () => Promise<unknown>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    const gone = await stillThere().then(
      () => false,
      (e: unknown) => e instanceof ApiError && e.code === "not_found",
    );
    if (gone) notFound();
    throw err;
  }
}
