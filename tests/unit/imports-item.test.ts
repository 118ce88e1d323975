// Offer shapes real catalogues publish that the x402 schemas refuse (lib/imports/item.ts, tolerantOffer):
// an offer without maxTimeoutSeconds, and an x402 v2 offer in the v1 spelling (maxAmountRequired, no
// amount). Both are read; an offer with no amount at all is still invalid_price.
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_TIMEOUT_SECONDS, parseItem } from "@/lib/imports/item";
import { v1Item, v2Item } from "../helpers/catalogue-server";

const withOffer = <T extends { accepts: Record<string, unknown>[] }>(item: T, edit: (o: Record<string, unknown>) => Record<string, unknown>): T => ({ ...item, accepts: item.accepts.map(edit) });
const without = (key: string) => (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

describe("parseItem offers", () => {
  it("reads an offer without maxTimeoutSeconds with the default timeout (v2 and v1)", () => {
    for (const raw of [withOffer(v2Item("https://api.a.com/w"), without("maxTimeoutSeconds")), withOffer(v1Item("https://api.a.com/w"), without("maxTimeoutSeconds"))]) {
      const r = parseItem(raw, null);
      expect(r.ok).toBe(true);
      if (r.ok) {
        expect(r.item.pricePerCall).toBe(0.002);
        expect(r.item.paymentSeen.accepts[0].maxTimeoutSeconds).toBe(DEFAULT_MAX_TIMEOUT_SECONDS);
      }
    }
  });

  it("keeps a declared maxTimeoutSeconds, and still refuses a non-positive one", () => {
    const r = parseItem(withOffer(v2Item("https://api.a.com/w"), (o) => ({ ...o, maxTimeoutSeconds: 300 })), null);
    expect(r.ok && r.item.paymentSeen.accepts[0].maxTimeoutSeconds).toBe(300);
    expect(parseItem(withOffer(v2Item("https://api.a.com/w"), (o) => ({ ...o, maxTimeoutSeconds: 0 })), null)).toEqual({ ok: false, reason: "invalid_price" });
  });

  it("reads a v2 offer in the v1 spelling (maxAmountRequired, outputSchema) as its amount and fields", () => {
    const raw = withOffer(v2Item("https://api.a.com/w"), (o) => ({
      ...without("amount")(o),
      maxAmountRequired: "5000",
      outputSchema: { input: { type: "http", method: "GET", queryParams: { cityName: "Oslo" } } },
    }));
    const r = parseItem(raw, null);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.item.pricePerCall).toBe(0.005);
      expect(r.item.paymentSeen.accepts[0].amount).toBe("5000");
      expect(r.item.parts.fields).toBe("city name");
    }
  });

  it("prefers amount when a v2 offer has both, and an offer with neither is invalid_price", () => {
    const both = parseItem(withOffer(v2Item("https://api.a.com/w"), (o) => ({ ...o, maxAmountRequired: "9000" })), null);
    expect(both.ok && both.item.pricePerCall).toBe(0.002);
    expect(parseItem(withOffer(v2Item("https://api.a.com/w"), without("amount")), null)).toEqual({ ok: false, reason: "invalid_price" });
  });

  it("reads an unpriced item only when asked to ignore the price (the evaluation's mapped-if-priced figures)", () => {
    const raw = withOffer(v2Item("https://api.a.com/w", { description: "Weather now" }), without("amount"));
    expect(parseItem(raw, null)).toEqual({ ok: false, reason: "invalid_price" });
    const r = parseItem(raw, null, false, { ignorePrice: true });
    expect(r.ok && { price: r.item.pricePerCall, description: r.item.description }).toEqual({ price: 0, description: "Weather now" });
    expect(parseItem({ ...raw, accepts: [] }, null, false, { ignorePrice: true }).ok).toBe(true);
    const eth = withOffer(v2Item("https://api.a.com/w"), (o) => ({ ...o, asset: "0x00000000000000000000000000000000deadbeef", extra: { name: "Wrapped Ether", decimals: 18 } }));
    expect(parseItem(eth, null, false, { ignorePrice: true })).toEqual({ ok: false, reason: "non_usd_asset" });
  });
});
