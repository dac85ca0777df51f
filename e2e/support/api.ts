import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** Creates an API key through the dashboard's API keys page and returns the plaintext shown once. */
export async function createApiKey(page: Page, name: string): Promise<string> {
  await page.goto("/api-keys");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const field = page.getByTestId("new-api-key");
  await expect(field).toHaveValue(/^fl_/);
  return field.inputValue();
}

/** A small client for /api/v1 with a key: returns status and parsed JSON (or null for an empty body). */
export function apiClient(request: APIRequestContext, key: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await request.fetch(`/api/v1${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        // A fresh connection per call: reusing one the server is just closing (its keep-alive timeout) gives ECONNRESET.
        Connection: "close",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      data: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status(), body: text ? JSON.parse(text) : null };
  };
  return {
    get: (path: string) => call("GET", path),
    post: (path: string, body: unknown) => call("POST", path, body),
    patch: (path: string, body: unknown) => call("PATCH", path, body),
    delete: (path: string) => call("DELETE", path),
  };
}
