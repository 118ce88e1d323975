// Accounts on a real production server (`next start`, shared Postgres): the sign-in link printed to
// the log when no EMAIL_SERVER is set, the account page showing only the signed-in user's own
// submissions with their endpoints' figures, and the refusal to start without AUTH_SECRET.
// Needs a production build (NEXT_DIST_DIR or .next) and the Postgres of DATABASE_URL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDb, queryRows, type DbHandle } from "@/lib/db/client";
import { sessions, submissions, users } from "@/lib/db/schema";
import { getObservedFigures } from "@/lib/outcomes/figures";
import { formatPercent } from "@/lib/portal/format";
import { createServerDatabase, startServer, type TestServer } from "../helpers/server";

let database: { url: string; drop: () => Promise<void> };
let server: TestServer;
let handle: DbHandle;

beforeAll(async () => {
  database = await createServerDatabase();
  server = await startServer({ DATABASE_URL: database.url, CAPDEX_WORKER: "off", CAPDEX_SEED: "demo", AUTH_TRUST_HOST: "1", EMAIL_SERVER: "" }, { timeoutMs: 240_000 });
  handle = await openDb({ url: database.url, migrate: false });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await handle?.close();
  await database?.drop();
});

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]);

async function signInSession(email: string): Promise<string> {
  const [{ id }] = await handle.db.insert(users).values({ email }).returning({ id: users.id });
  const token = randomUUID();
  await handle.db.insert(sessions).values({ sessionToken: token, userId: id, expires: new Date(Date.now() + 86_400_000) });
  return token;
}

describe("e-mail sign-in without EMAIL_SERVER", () => {
  it("prints the link to the server log, and the link signs the person in", async () => {
    const csrf = await fetch(`${server.url}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await fetch(`${server.url}/api/auth/signin/nodemailer`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: cookiesOf(csrf).join("; "), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, email: "Log.Reader@Example.com", callbackUrl: "/account" }),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toContain("/api/auth/verify-request");
    const line = server.logs.join("").split("\n").find((l) => l.includes("[capdex] sign-in link for log.reader@example.com"));
    expect(line).toBeDefined();
    const link = /(http:\/\/\S+)/.exec(line!)![1];
    expect(link.startsWith(`${server.url}/api/auth/callback/nodemailer?`)).toBe(true);

    const callback = await fetch(link, { redirect: "manual" });
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe(`${server.url}/account`);
    const session = cookiesOf(callback).find((c) => c.startsWith("authjs.session-token="));
    expect(session).toBeDefined();
    const me = await fetch(`${server.url}/api/auth/session`, { headers: { cookie: session! } });
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe("log.reader@example.com");
  });
});

describe("the account page", () => {
  it("lists only the signed-in user's submissions, with the listed endpoint's 7-day figures", async () => {
    const [endpoint] = await queryRows<{ id: string; url: string; capability_id: string }>(
      handle.db,
      sql`select e.id::text as id, e.url, e.capability_id from endpoints e
          join outcome_rollups r on r.endpoint_id = e.id group by e.id order by sum(r.reports) desc limit 1`,
    );
    expect(endpoint).toBeDefined();
    const figures = (await getObservedFigures(handle.db, [endpoint.id])).get(endpoint.id)!;
    expect(figures.success_rate_7d).not.toBeNull();

    const alice = await signInSession("alice@example.com");
    const bob = await signInSession("bob@example.com");
    const [{ userId: aliceId }] = await handle.db.select({ userId: sessions.userId }).from(sessions).where(sql`${sessions.sessionToken} = ${alice}`);
    const [{ userId: bobId }] = await handle.db.select({ userId: sessions.userId }).from(sessions).where(sql`${sessions.sessionToken} = ${bob}`);
    const base = { capabilityId: endpoint.capability_id, contactEmail: "p@example.com", providerName: "P", pricePerCall: 0.01, token: "t".repeat(32), expiresAt: new Date(Date.now() + 7 * 86_400_000) };
    await handle.db.insert(submissions).values([
      { ...base, userId: aliceId, status: "verified", endpointUrl: endpoint.url, host: "alice.example", domain: "alice.example", endpointId: endpoint.id },
      { ...base, userId: bobId, endpointUrl: "https://api.bob-only.example/v1", host: "api.bob-only.example", domain: "bob-only.example" },
    ]);

    const page = async (token: string) => (await fetch(`${server.url}/account`, { headers: { cookie: `authjs.session-token=${token}` } })).text();
    const alicePage = await page(alice);
    expect(alicePage).toContain("alice@example.com");
    expect(alicePage).toContain(endpoint.url);
    expect(alicePage).toContain(formatPercent(figures.success_rate_7d));
    expect(alicePage).not.toContain("bob-only.example");
    const bobPage = await page(bob);
    expect(bobPage).toContain("api.bob-only.example");
    expect(bobPage).not.toContain(endpoint.url);
  });

  it("sends people without a session to sign in, and one with an unknown session too", async () => {
    const none = await fetch(`${server.url}/account`, { redirect: "manual" });
    expect(none.status).toBe(307);
    expect(none.headers.get("location")).toContain("/signin?callbackUrl=%2Faccount");
    const stale = await fetch(`${server.url}/account`, { redirect: "manual", headers: { cookie: `authjs.session-token=${randomUUID()}` } });
    expect([303, 307, 308]).toContain(stale.status);
    expect(stale.headers.get("location")).toContain("/signin");
  });
});

describe("start-up", () => {
  it("refuses to start on a shared database without AUTH_SECRET, saying what to do", async () => {
    const err = await startServer({ DATABASE_URL: database.url, CAPDEX_WORKER: "off", AUTH_SECRET: "" }, { timeoutMs: 120_000 }).then(
      (s) => s.stop().then(() => null),
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/server exited early/);
    expect(err?.message).toMatch(/"level":"fatal".*AUTH_SECRET is not set/);
  }, 150_000);
});
