import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "@/lib/http/errors";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { ERROR_HELP, POLICY_OPERATIONS, buildDocOperations, curlExamples } from "@/lib/portal/docs";
import { POLICIES, type PolicyName } from "@/lib/ratelimit/policies";

const ORIGIN = "https://capdex.test";
const doc = buildOpenApiDocument(ORIGIN) as { paths: Record<string, Record<string, { description?: string }>> };
const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => ({ key: `${m.toUpperCase()} ${path}`, path, method: m, op: item[m] })));

describe("the docs page against the OpenAPI document", () => {
  it("has a hand-written curl example for every operation of /api/openapi.json", () => {
    const examples = curlExamples(`${ORIGIN}/api`);
    expect(operations.length).toBeGreaterThan(8);
    for (const { key } of operations) expect(examples[key], `no curl example for ${key}`).toBeDefined();
    // and none for operations that do not exist
    for (const key of Object.keys(examples)) expect(operations.map((o) => o.key), `example for unknown ${key}`).toContain(key);
  });

  it("calls each operation's own path and method in its example", () => {
    const examples = curlExamples(`${ORIGIN}/api`);
    for (const { key, path, method } of operations) {
      const rel = path === "/" ? "" : path; // the descriptor is /api itself
      const pattern = new RegExp(`'${ORIGIN}/api${rel.replace(/\{[^}]+\}/g, "[^/'?]+").replace(/\//g, "\\/")}(\\?[^']*)?'`);
      expect(examples[key], key).toMatch(pattern);
      expect(examples[key].includes("-X POST"), key).toBe(method === "post");
    }
  });

  it("lists every operation once, with a unique anchor, its fields and its curl", () => {
    const ops = buildDocOperations(ORIGIN);
    expect(ops.map((o) => o.key).sort()).toEqual(operations.map((o) => o.key).sort());
    expect(new Set(ops.map((o) => o.anchor)).size).toBe(ops.length);
    const discover = ops.find((o) => o.key === "POST /discover")!;
    expect(discover.fields.map((f) => f.name)).toEqual(expect.arrayContaining(["capability_id", "intent", "constraints", "preferences"]));
    expect(discover.rateLimit).toMatch(/60 anonymous \/ 600 authenticated per minute/);
    const list = ops.find((o) => o.key === "GET /capabilities")!;
    expect(list.fields.filter((f) => f.where === "query").map((f) => f.name)).toEqual(expect.arrayContaining(["search", "category", "with_endpoints", "cursor"]));
  });

  it("puts every rate-limited operation in the rate-limit table under a policy with the same numbers", () => {
    const tabled = new Map<string, PolicyName>();
    for (const [policy, keys] of Object.entries(POLICY_OPERATIONS) as Array<[PolicyName, string[]]>) for (const k of keys) tabled.set(k, policy);
    for (const { key, op } of operations) {
      const m = /^Rate limit: (\d+) anonymous \/ (\d+) authenticated per (minute|hour)/.exec(op.description ?? "");
      if (!m) continue;
      const policy = tabled.get(key);
      expect(policy, `${key} is rate-limited but not in the docs table`).toBeDefined();
      const p = POLICIES[policy!];
      expect([p.anonymous, p.authenticated, p.windowSeconds], key).toEqual([Number(m[1]), Number(m[2]), m[3] === "minute" ? 60 : 3600]);
    }
    for (const keys of Object.values(POLICY_OPERATIONS)) for (const k of keys) expect(operations.map((o) => o.key)).toContain(k);
  });

  it("explains every error code", () => {
    for (const code of Object.keys(ERROR_CODES)) expect(ERROR_HELP[code as keyof typeof ERROR_HELP], code).toMatch(/\w{3,}/);
  });
});
