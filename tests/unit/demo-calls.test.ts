import { describe, expect, it } from "vitest";
import type { EndpointCall } from "@/lib/schemas/call";
import { CATALOGUE } from "@/lib/seed/catalogue";
import { demoCallOf, DEMO_CALL_CAPABILITIES } from "@/lib/seed/demo-calls";

// The demo seed builds its calls without the validators (fast start-up); here every one must pass them.
describe("the demo endpoints' call declarations", () => {
  it("cover every catalogue capability", () => {
    expect(new Set(DEMO_CALL_CAPABILITIES)).toEqual(new Set(CATALOGUE.capabilities.map((c) => c.id)));
  });

  it("validate with the official bazaar validators, for GET (query) and POST (JSON body), as the seed stores them", () => {
    // An id that declares (about 4 in 5 do): try a few until one does.
    const id = ["a", "b", "c", "d", "e", "f"].map((x) => `demo-${x}`).find((x) => demoCallOf(x, "weather.current", "GET").call)!;
    for (const cap of DEMO_CALL_CAPABILITIES) {
      for (const method of ["GET", "POST"]) {
        const checked = demoCallOf(id, cap, method, { validate: true });
        expect(checked.call, `${cap} ${method}`).not.toBeNull();
        expect(demoCallOf(id, cap, method)).toEqual(checked);
        const call = checked.call as unknown as EndpointCall;
        expect(call.input.kind).toBe(method === "GET" ? "query" : "body");
        expect(call.output?.example).toBeTruthy();
      }
    }
  });

  it("leave about one endpoint in five without a declaration, the same ones every time", () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `endpoint-${i}`);
    const without = ids.filter((id) => !demoCallOf(id, "geo.geocode", "GET").call);
    expect(without.length / ids.length).toBeGreaterThan(0.12);
    expect(without.length / ids.length).toBeLessThan(0.28);
    expect(ids.filter((id) => !demoCallOf(id, "geo.geocode", "GET").call)).toEqual(without);
  });
});
