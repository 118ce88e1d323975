import { afterEach, describe, expect, it } from "vitest";
import { readFilters, agentBody } from "@/lib/portal/filters";
import { formatAgo, formatPercent, formatPrice } from "@/lib/portal/format";
import { stepOfPointer, toBodyShape, validateAll, validateStep, type WizardValues } from "@/lib/portal/wizard";
import { curlPostJson, shellQuote } from "@/lib/portal/examples";

const known = (id: string) => id === "weather.current";
const good: WizardValues = {
  endpoint_url: "https://api.acme-weather.com/v1/now",
  method: "GET",
  capability_id: "weather.current",
  price_per_call: "0.002",
  network: "base",
  accepted_assets: "usdc, usdt",
  provider_name: "Acme Weather",
  contact_email: "ops@acme-weather.com",
};

afterEach(() => {
  delete process.env.ALLOW_PRIVATE_TARGETS;
});

describe("the submission wizard's checks", () => {
  it("refuses the empty first step field by field", () => {
    const errors = validateStep(0, {}, known);
    expect(errors.endpoint_url).toBe("Required.");
    expect(errors.capability_id).toBe("Pick a capability from the list.");
    expect(errors.method).toBeUndefined();
  });

  it("applies the submission URL rules, not only the schema", () => {
    expect(validateStep(0, { ...good, endpoint_url: "http://api.acme-weather.com/x" }, known).endpoint_url).toMatch(/https/);
    expect(validateStep(0, { ...good, endpoint_url: "https://10.0.0.1/x" }, known).endpoint_url).toMatch(/.+/);
    expect(validateStep(0, { ...good, endpoint_url: "https://user:pw@api.acme-weather.com/" }, known).endpoint_url).toMatch(/user name or password/);
    expect(validateStep(0, { ...good, endpoint_url: "https://api.acme.test/x" }, known).endpoint_url).toMatch(/.+/);
    process.env.ALLOW_PRIVATE_TARGETS = "1";
    expect(validateStep(0, { ...good, endpoint_url: "http://api.acme.test/x" }, known)).toEqual({});
  });

  it("refuses unknown capabilities and methods", () => {
    expect(validateStep(0, { ...good, capability_id: "weather.nope" }, known).capability_id).toMatch(/Unknown capability/);
    expect(validateStep(0, { ...good, capability_id: "Not An Id" }, known).capability_id).toMatch(/<category>\.<name>/);
    expect(validateStep(0, { ...good, method: "TRACE" }, known).method).toMatch(/GET, POST/);
  });

  it("checks prices, networks and assets with the submit schema's messages", () => {
    expect(validateStep(1, { ...good, price_per_call: "" }, known).price_per_call).toMatch(/USD per call/);
    expect(validateStep(1, { ...good, price_per_call: "abc" }, known).price_per_call).toMatch(/USD per call/);
    expect(validateStep(1, { ...good, price_per_call: "-1" }, known).price_per_call).toBe("Must be 0 or more.");
    expect(validateStep(1, { ...good, price_per_call: "5000" }, known).price_per_call).toBe("At most 1000 USD per call.");
    expect(validateStep(1, { ...good, network: "dogechain" }, known).network).toMatch(/Unknown network/);
    expect(validateStep(1, { ...good, accepted_assets: "US DOLLARS!" }, known).accepted_assets).toMatch(/.+/);
    expect(validateStep(1, good, known)).toEqual({});
  });

  it("checks the contact step", () => {
    const errors = validateStep(2, { provider_name: "  ", contact_email: "not-an-email" }, known);
    expect(errors.provider_name).toBe("Required.");
    expect(errors.contact_email).toBe("Must be an e-mail address.");
  });

  it("turns a complete form into the body POST /api/submit takes", () => {
    const result = validateAll(good, known);
    expect(result).toEqual({
      body: {
        endpoint_url: "https://api.acme-weather.com/v1/now",
        method: "GET",
        capability_id: "weather.current",
        price_per_call: 0.002,
        network: "base",
        accepted_assets: ["USDC", "USDT"],
        provider_name: "Acme Weather",
        contact_email: "ops@acme-weather.com",
      },
    });
    const bad = validateAll({ ...good, contact_email: "x" }, known);
    expect(bad).toMatchObject({ step: 2, errors: { contact_email: "Must be an e-mail address." } });
    expect(toBodyShape({ description: "" }, ["description"])).toEqual({});
  });

  it("maps problem pointers back to their step", () => {
    expect(stepOfPointer("#/endpoint_url")).toEqual({ step: 0, field: "endpoint_url" });
    expect(stepOfPointer("#/price_per_call")).toEqual({ step: 1, field: "price_per_call" });
    expect(stepOfPointer("#/contact_email")).toEqual({ step: 2, field: "contact_email" });
    expect(stepOfPointer("#/payment_type")).toEqual({ step: 0, field: null });
    expect(stepOfPointer("#/proposed_capability/id")).toEqual({ step: 0, field: "proposed_id" });
    expect(stepOfPointer("#/proposed_capability/example_intents/2")).toEqual({ step: 0, field: "proposed_examples" });
    expect(stepOfPointer("#/proposed_capability")).toEqual({ step: 0, field: "proposed_id" });
  });

  it("proposing a capability sends proposed_capability instead of capability_id", () => {
    const proposing: WizardValues = {
      ...good,
      capability_choice: "propose",
      proposed_id: " astro.moon_phase ",
      proposed_title: "Moon phase",
      proposed_description: "The moon's phase for a date and place",
      proposed_examples: "is it a full moon tonight\r\n\r\nmoon phase on 3 March",
    };
    const result = validateAll(proposing, known);
    expect(result).toMatchObject({
      body: {
        proposed_capability: {
          id: "astro.moon_phase",
          title: "Moon phase",
          description: "The moon's phase for a date and place",
          category: "astro",
          example_intents: ["is it a full moon tonight", "moon phase on 3 March"],
        },
      },
    });
    expect("body" in result && "capability_id" in result.body).toBe(false);
    expect(toBodyShape({ ...proposing, proposed_examples: "" }, ["proposed_id"]).proposed_capability).not.toHaveProperty("example_intents");
    // the same fields when picking from the list: no proposal
    expect(toBodyShape({ ...proposing, capability_choice: "pick" })).not.toHaveProperty("proposed_capability");
    expect(validateStep(0, { ...proposing, proposed_id: "weather.current" }, known).proposed_id).toMatch(/already a capability: pick it from the list/);
  });
});

describe("the capability page's filters", () => {
  it("are inactive without parameters and send only the capability", () => {
    const f = readFilters("weather.current", {});
    expect(f.active).toBe(false);
    expect(agentBody(f.body!)).toEqual({ capability_id: "weather.current" });
  });

  it("turn URL parameters into a discover body checked by its schema", () => {
    const f = readFilters("weather.current", { max_price: "0.01", network: "EIP155:8453", verified_only: "1", preset: "budget" });
    expect(f.active).toBe(true);
    expect(f.errors).toEqual({});
    expect(agentBody(f.body!)).toEqual({
      capability_id: "weather.current",
      constraints: { max_price: 0.01, network: "base", verified_only: true },
      preferences: { ranking_preset: "budget" },
    });
  });

  it("report bad values beside their control", () => {
    const f = readFilters("weather.current", { max_price: "cheap", network: "dogechain", preset: "fastest" });
    expect(f.body).toBeNull();
    expect(f.errors.max_price).toMatch(/number/);
    expect(f.errors.network).toMatch(/Unknown network/);
    expect(f.errors.preset).toMatch(/Unknown preset/);
    expect(readFilters("weather.current", { max_price: "-2" }).errors.max_price).toBe("Must be 0 or more.");
  });
});

describe("formatting", () => {
  it("writes prices, rates and ages for people", () => {
    expect(formatPrice(0)).toBe("Free");
    expect(formatPrice(0.0015)).toBe("$0.0015");
    expect(formatPrice(2)).toBe("$2.00");
    expect(formatPercent(null)).toBe("—");
    expect(formatPercent(0.9734)).toBe("97.3%");
    const now = new Date("2025-01-01T12:00:00Z");
    expect(formatAgo("2025-01-01T11:55:00Z", now)).toBe("5 min ago");
    expect(formatAgo(null, now)).toBe("never");
  });

  it("quotes shell strings so a quote in a body cannot break the command", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(curlPostJson("https://x.test/api/discover", { intent: "it's" })).toContain(`'{\n  "intent": "it'\\''s"\n}'`);
  });
});
