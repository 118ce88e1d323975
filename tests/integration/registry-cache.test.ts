// The in-memory registry is one copy per database handle and process (lib/registry/cache.ts): Next
// bundles the start-up code apart from each route, each with its own instance of the module, and a
// route must find the copy (and the intent index derived from it) that the warm-up loaded, not load
// its own. Here a second instance of the module stands for a second bundle.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { bumpRegistryVersion } from "@/lib/registry/version";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t.close();
});

describe("the registry's in-memory copy", () => {
  it("is shared by every instance of the module in a process, and reloaded when the version changes", async () => {
    const first = await import("@/lib/registry/cache");
    const loaded = await first.getRegistry(t.db);
    expect(loaded.capabilities.length).toBeGreaterThanOrEqual(100);
    const derived = first.derive(loaded, "test-derived", () => ({ built: loaded.version }));

    vi.resetModules();
    const second = await import("@/lib/registry/cache");
    expect(second).not.toBe(first);
    const seen = await second.getRegistry(t.db);
    expect(seen).toBe(loaded);
    expect(second.derive(seen, "test-derived", () => ({ built: -1 }))).toBe(derived);

    // A change elsewhere (another instance) bumps the version: both module instances see the new copy.
    await bumpRegistryVersion(t.db);
    await new Promise((r) => setTimeout(r, 1100));
    const reloaded = await second.getRegistry(t.db);
    expect(reloaded).not.toBe(loaded);
    expect(reloaded.version).toBe(loaded.version + 1);
    expect(await first.getRegistry(t.db)).toBe(reloaded);
  });
});
