// A provider is told by e-mail when an endpoint starts failing its checks: once, on the probe that
// makes it failing, not on the probes after; again after it recovered and starts failing anew.
// Real parts: an HTTP server on loopback playing the provider, a real SMTP server on loopback.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "@/lib/db/schema";
import { probeEndpoint } from "@/lib/probes";
import { approveSubmission } from "@/lib/submissions/operator";
import * as submit from "@/app/api/submit/route";
import { createTestDb, type TestDb } from "../helpers/db";
import { call } from "../helpers/http";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";

let t: TestDb;
let smtp: TestSmtpServer;
let server: http.Server;
let origin = "";
let healthy = true;
let endpointId = "";
const saved = { EMAIL_SERVER: process.env.EMAIL_SERVER, CAPDEX_ORIGIN: process.env.CAPDEX_ORIGIN };

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_TARGETS = "1";
  process.env.CAPDEX_RATE_LIMIT = "off";
  t = await createTestDb({ seed: "catalogue" });
  smtp = await startSmtpServer();
  process.env.EMAIL_SERVER = smtp.url;
  process.env.CAPDEX_ORIGIN = "https://capdex.test";
  server = http.createServer((_req, res) => {
    res.writeHead(healthy ? 200 : 503, { "content-type": "application/json" });
    res.end(JSON.stringify(healthy ? { temperature_c: 4 } : { error: "down" }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const res = await call(submit.POST, "/api/submit", {
    method: "POST",
    json: { endpoint_url: `${origin}/weather`, capability_id: "weather.current", contact_email: "alerts@example.test", provider_name: "Free Weather", price_per_call: 0 },
  });
  expect(res.status).toBe(202);
  expect((await approveSubmission(t.db, res.body.submission_id as string)).ok).toBe(true);
  const [e] = await t.db.select().from(endpoints).where(eq(endpoints.url, `${origin}/weather`));
  endpointId = e.id;
  expect(e.checkState).toBe("verified");
});
afterAll(async () => {
  Object.assign(process.env, saved);
  for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
  await new Promise((r) => server.close(r));
  await smtp.stop();
  await t.close();
});

const probe = async () => {
  const r = await probeEndpoint(t.db, endpointId);
  if (r.skipped) throw new Error(`skipped: ${r.skipped}`);
  return r.state!;
};

describe("failing alerts", () => {
  it("mails the contact once, on the transition to failing", async () => {
    healthy = false;
    expect((await probe()).checkState).toBe("unverified");
    expect((await probe()).checkState).toBe("unverified");
    expect(smtp.messages).toHaveLength(0);
    const third = await probe();
    expect(third).toMatchObject({ checkState: "failing", becameFailing: true });
    const mail = await smtp.waitForMail("alerts@example.test", 5000);
    expect(mail.text).toContain(`${origin}/weather`);
    expect(mail.text).toContain("failed its last 3 checks");
    expect(mail.text).toContain("unexpected_status (HTTP 503)");
    expect(mail.text).toContain(`https://capdex.test/endpoints/${endpointId}`);
    expect(mail.raw).toMatch(/Subject: Capdex: .* is failing its checks/);
    // still failing: no more e-mail
    expect((await probe()).becameFailing).toBe(false);
    await probe();
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages).toHaveLength(0);
  });

  it("mails again when it fails anew after recovering", async () => {
    healthy = true;
    expect((await probe()).checkState).toBe("verified");
    healthy = false;
    await probe();
    await probe();
    await probe();
    const mail = await smtp.waitForMail("alerts@example.test", 5000);
    expect(mail.text).toContain("failed its last 3 checks");
    expect(smtp.messages).toHaveLength(0);
  });
});
