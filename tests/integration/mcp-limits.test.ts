// Tiers and rate limits through the MCP endpoint: each tool call counts against its HTTP twin's
// policy for the caller's address or key, and a valid key gets the authenticated tier.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { callTool, connectMcp, routeFetch } from "../helpers/mcp";
import * as mcp from "@/app/api/mcp/route";
import * as discoverRoute from "@/app/api/discover/route";
import { createApiKey } from "@/lib/auth/keys";
import { users } from "@/lib/db/schema";
import { CATALOGUE } from "@/lib/seed/catalogue";
import { seedDemoEndpoints } from "@/lib/seed/demo";
import { flushDiscoveryLog } from "@/lib/discovery";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ seed: "catalogue" });
  await seedDemoEndpoints(t.db, CATALOGUE.capabilities.filter((c) => c.id.startsWith("weather.")));
}, 300_000);
afterAll(async () => {
  if (t) await flushDiscoveryLog(t.db);
  await t?.close();
});

describe("tiers and rate limits", () => {
  it("limits anonymous discover calls to 60 a minute per address, shared with the HTTP API", async () => {
    const seen: Response[] = [];
    const fetchOne = routeFetch(mcp, "198.51.100.61");
    const anon = await connectMcp({
      fetch: async (input, init) => {
        const res = await fetchOne(input, init);
        seen.push(res.clone());
        return res;
      },
    });
    const results = [];
    for (let i = 0; i < 61; i++) results.push(await callTool(anon, "discover", { capability_id: "weather.current" }));
    await anon.close();
    expect(results.slice(0, 60).every((r) => !r.isError)).toBe(true);
    const over = results[60];
    expect(over.isError).toBe(true);
    expect(over.structuredContent).toMatchObject({ code: "rate_limited", status: 429, violated_policy: "discover", retry_after: expect.any(Number) });
    expect(over.text).toMatch(/^Error rate_limited \(429\)[\s\S]*Retry after \d+ s\./);
    const last = seen.filter((r) => r.headers.has("ratelimit")).pop()!;
    expect(last.headers.get("ratelimit-policy")).toBe('"discover";q=60;w=60');
    expect(last.headers.get("ratelimit")).toMatch(/^"discover";r=0;t=\d+$/);
    // The HTTP operation counts against the same budget.
    const http = await call(discoverRoute.POST, "/api/discover", { method: "POST", json: { capability_id: "weather.current" }, headers: { "x-forwarded-for": "198.51.100.61" } });
    expect(http.status).toBe(429);
    // Other tools have their own policies.
    const other = await connectMcp({ fetch: fetchOne });
    expect((await callTool(other, "list_capabilities", { limit: 1 })).isError).toBeFalsy();
    await other.close();
  });

  it("gives a valid API key the authenticated tier", async () => {
    const [{ id }] = await t.db.insert(users).values({ email: "mcp@example.com" }).returning({ id: users.id });
    const { key } = await createApiKey(t.db, id, "mcp");
    const seen: Response[] = [];
    const fetchOne = routeFetch(mcp, "198.51.100.62");
    const authed = await connectMcp({
      apiKey: key,
      fetch: async (input, init) => {
        const res = await fetchOne(input, init);
        seen.push(res.clone());
        return res;
      },
    });
    expect((await callTool(authed, "discover", { capability_id: "weather.current" })).isError).toBeFalsy();
    await authed.close();
    expect(seen.find((r) => r.headers.has("ratelimit-policy"))?.headers.get("ratelimit-policy")).toBe('"discover";q=600;w=60');
  });
});
