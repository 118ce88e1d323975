// The wizard's "None fits — propose a capability" path on a real database and DNS server: each post
// goes through advanceWizard (what the wizard's server action runs), so the form is refused exactly
// as POST /api/submit refuses proposed_capability, and the submission it makes waits for its proposal
// as an API submission does.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../helpers/db";
import { startDnsServer, type DnsTestServer } from "../helpers/dns-server";
import type { Principal } from "@/lib/auth/principal";
import { queryRows } from "@/lib/db/client";
import { capabilityProposals } from "@/lib/db/schema";
import { advanceWizard, type WizardOutcome } from "@/lib/portal/wizard-submit";
import type { WizardValues } from "@/lib/portal/wizard";
import { acceptProposal } from "@/lib/proposals/decide";
import { getSubmission, verifySubmissionNow } from "@/lib/submissions";

let t: TestDb;
let dns: DnsTestServer;
let ip = 0;
const anonymous = async (): Promise<Principal> => ({ kind: "anonymous", key: `ip:203.0.113.${++ip}`, ip: `203.0.113.${ip}` });

const form = (over: WizardValues = {}): WizardValues => ({
  endpoint_url: "https://api.tides-now.com/v1/tides",
  method: "GET",
  capability_choice: "propose",
  // the list's selection is posted too; proposing ignores it
  capability_id: "",
  proposed_id: "ocean.tide_times",
  proposed_title: "Tide times",
  proposed_description: "High and low tide times for a harbour and a date",
  proposed_examples: "when is high tide in Bergen tomorrow\n\n  tide table for Brest  ",
  price_per_call: "0.001",
  network: "base",
  accepted_assets: "USDC",
  provider_name: "Tides Now",
  contact_email: "ops@tides-now.com",
  ...over,
});

/** Posts every step in turn with Next, as the wizard does; the first answer that is not the next step. */
async function walk(values: WizardValues): Promise<WizardOutcome> {
  for (let step = 0; ; step++) {
    const out = await advanceWizard(t.db, { step, values, nav: "next" }, anonymous);
    if ("submissionId" in out || out.step !== step + 1) return out;
  }
}

async function stored(url: string) {
  const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from submissions where endpoint_url = ${url}`);
  return Number(row.n);
}

beforeAll(async () => {
  process.env.CAPDEX_RATE_LIMIT = "off";
  delete process.env.ALLOW_PRIVATE_TARGETS;
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.address;
  t = await createTestDb({ seed: "catalogue" });
}, 120_000);
afterAll(async () => {
  await dns?.close();
  await t?.close();
});

describe("the wizard's none-fits path", () => {
  it("refuses the proposal's fields beside each, with the API's messages, and stores nothing", async () => {
    const url = "https://api.bad-proposal.com/x";
    const empty = await walk(form({ endpoint_url: url, proposed_id: "", proposed_title: "", proposed_description: "", proposed_examples: "" }));
    expect(empty).toMatchObject({ step: 0 });
    if ("submissionId" in empty) throw new Error("created");
    expect(empty.errors.proposed_id).toMatch(/<category>\.<name>/);
    expect(empty.errors.proposed_title).toBe("At least 3 characters.");
    expect(empty.errors.proposed_description).toMatch(/At least 10 characters/);
    // choosing a capability is not asked for when proposing one
    expect(empty.errors.capability_id).toBeUndefined();

    const shapes = await walk(form({ endpoint_url: url, proposed_id: "Ocean Tides", proposed_examples: "ok need\nno" }));
    if ("submissionId" in shapes) throw new Error("created");
    expect(shapes.errors.proposed_id).toMatch(/lower snake_case/);
    expect(shapes.errors.proposed_examples).toBe("Line 2: At least 3 characters.");

    const category = await walk(form({ endpoint_url: url, proposed_id: "o.tide_times" }));
    if ("submissionId" in category) throw new Error("created");
    expect(category.errors.proposed_id).toMatch(/category/);

    const tooMany = await walk(form({ endpoint_url: url, proposed_examples: Array.from({ length: 11 }, (_, i) => `need number ${i}`).join("\n") }));
    if ("submissionId" in tooMany) throw new Error("created");
    expect(tooMany.errors.proposed_examples).toBe("At most 10 examples.");

    expect(await stored(url)).toBe(0);
    expect(await t.db.select().from(capabilityProposals).where(eq(capabilityProposals.capabilityId, "o.tide_times"))).toHaveLength(0);
  });

  it("says to pick an id that is already a capability, and selects it in the list", async () => {
    const url = "https://api.weather-again.com/now";
    const out = await walk(form({ endpoint_url: url, proposed_id: "weather.current" }));
    expect(out).toMatchObject({
      step: 0,
      values: { capability_id: "weather.current", capability_choice: "propose" },
      errors: { proposed_id: "weather.current is already a capability: pick it from the list instead of proposing it." },
    });
    expect(await stored(url)).toBe(0);
  });

  it("picking from the list still needs a capability, and ignores the proposal's fields", async () => {
    const url = "https://api.picked.com/now";
    const none = await advanceWizard(t.db, { step: 0, values: form({ endpoint_url: url, capability_choice: "pick" }), nav: "next" }, anonymous);
    expect(none).toMatchObject({ step: 0, errors: { capability_id: "Pick a capability from the list." } });
    const picked = await walk(form({ endpoint_url: url, capability_choice: "pick", capability_id: "weather.current", proposed_id: "not an id" }));
    if (!("submissionId" in picked)) throw new Error(JSON.stringify(picked.errors));
    const sub = await getSubmission(t.db, picked.submissionId);
    expect(sub).toMatchObject({ capability_id: "weather.current", proposal_id: null });
  });

  it("creates the submission with proposed_capability: verified by DNS, waiting for the proposal, listed once accepted", async () => {
    const out = await walk(form());
    if (!("submissionId" in out)) throw new Error(JSON.stringify(out.errors));
    const sub = await getSubmission(t.db, out.submissionId);
    expect(sub).toMatchObject({ status: "pending_verification", capability_id: "ocean.tide_times", proposal_id: expect.any(String) });
    const [proposal] = await t.db.select().from(capabilityProposals).where(eq(capabilityProposals.id, sub.proposal_id!));
    expect(proposal).toMatchObject({
      capabilityId: "ocean.tide_times",
      title: "Tide times",
      description: "High and low tide times for a harbour and a date",
      categoryId: "ocean",
      exampleIntents: ["when is high tide in Bergen tomorrow", "tide table for Brest"],
      source: "provider",
      status: "open",
    });

    // a second provider proposing the same id through the wizard joins that proposal
    const other = await walk(form({ endpoint_url: "https://tides.harbour-data.net/api", contact_email: "ops@harbour-data.net", proposed_title: "Tides" }));
    if (!("submissionId" in other)) throw new Error(JSON.stringify(other.errors));
    expect((await getSubmission(t.db, other.submissionId)).proposal_id).toBe(sub.proposal_id);

    dns.setTxt(sub.verification.record_name, [sub.verification.record_value]);
    expect(await verifySubmissionNow(t.db, sub.submission_id)).toMatchObject({ status: "pending_capability", endpoint_id: null });
    await acceptProposal(t.db, "ocean.tide_times", { by: "test" });
    expect(await getSubmission(t.db, sub.submission_id)).toMatchObject({ status: "verified", capability_id: "ocean.tide_times", listing: { status: "listed" } });
  }, 60_000);

  it("going back keeps the proposal's fields", async () => {
    const values = form({ endpoint_url: "https://api.back-again.com/x" });
    const back = await advanceWizard(t.db, { step: 1, values, nav: "back" }, anonymous);
    expect(back).toEqual({ step: 0, values, errors: {} });
  });
});
