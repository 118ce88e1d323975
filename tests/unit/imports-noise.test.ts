// Catalogue noise (lib/imports/noise.ts) on small hand-written items: each held-back reason, the
// listings that must not be taken for noise, and the host groups (boilerplate, duplicates).
import { describe, expect, it } from "vitest";
import { parseItem, type ParsedItem } from "@/lib/imports/item";
import { createNoiseJudge, GROUP_MIN, groupKeysOf, groupVerdict, noiseOfItem } from "@/lib/imports/noise";
import { v1Item, v2Item } from "../helpers/catalogue-server";

function item(raw: unknown): ParsedItem {
  const r = parseItem(raw, null);
  if (!r.ok) throw new Error(`fixture does not parse: ${r.reason}`);
  return r.item;
}
const v2 = (url: string, opts: Parameters<typeof v2Item>[1] = {}) => item(v2Item(url, opts));
const declared = (fields: Record<string, string>) => ({
  bazaar: {
    info: { input: { type: "http", method: "GET", queryParams: Object.fromEntries(Object.keys(fields).map((k) => [k, "x"])) } },
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        input: {
          type: "object",
          properties: {
            type: { type: "string", const: "http" },
            method: { type: "string", enum: ["GET"] },
            queryParams: { type: "object", properties: Object.fromEntries(Object.entries(fields).map(([k, t]) => [k, { type: t }])) },
          },
          required: ["type"],
        },
      },
      required: ["input"],
    },
  },
});

describe("noise of one item", () => {
  it("passes real listings", () => {
    expect(noiseOfItem(v2("https://api.nimbus-x402.dev/v1/current", { description: "Current weather conditions for a city" }))).toBeNull();
    expect(noiseOfItem(v2("https://api.chainlens-x402.dev/tokens/minted", { description: "Returns the newest tokens minted on the chain, with their creators" }))).toBeNull();
    expect(noiseOfItem(v2("https://api.gallery-x402.dev/v1/caption", { description: "Describe an image: a caption for a picture given by URL" }))).toBeNull();
    // No description, but its name and path say what it does: left to the mapper.
    expect(noiseOfItem(v2("https://api.geo-x402.dev/v1/reverse-geocode", { description: "", serviceName: "Reverse geocoding" }))).toBeNull();
  });

  it("holds back boilerplate descriptions", () => {
    for (const d of ["Premium API Access", "Researcher | Powered by Questflow", "0.1 USDC on base", "$0.01", "Payment required: $0.015", "Payment for API access", "Protected route"]) {
      expect(noiseOfItem(v2("https://api.stock-x402.dev/v1/thing", { description: d })), d).toBe("boilerplate_description");
    }
    // A real description with the platform's suffix is read as the description.
    expect(noiseOfItem(v2("https://api.agents-x402.dev/v1/images", { description: "Generate high-quality images from a text prompt. | Powered by Questflow" }))).toBeNull();
  });

  it("holds back listings that say nothing", () => {
    expect(noiseOfItem(v2("https://api.blank-x402.dev/x", { description: "" }))).toBe("empty_description");
    expect(noiseOfItem(v2("https://api.blank-x402.dev/x", { description: "asdf qwer" }))).toBe("empty_description");
  });

  it("holds back testnet-only offers, not mixed ones", () => {
    expect(noiseOfItem(v2("https://api.nimbus-x402.dev/v1/current", { network: "eip155:84532" }))).toBe("testnet_only");
    expect(noiseOfItem(item(v1Item("https://api.nimbus-x402.dev/v1/current", { network: "base-sepolia" })))).toBe("testnet_only");
    const mixed = v2Item("https://api.nimbus-x402.dev/v1/current");
    mixed.accepts.unshift({ ...mixed.accepts[0], network: "eip155:84532" });
    expect(noiseOfItem(item(mixed))).toBeNull();
  });

  it("holds back content paywalls", () => {
    expect(noiseOfItem(v2("https://gateway.files-x402.dev/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG", { description: "Retrieve this file" }))).toBe("content_paywall");
    expect(noiseOfItem(v2("https://blog-x402.dev/posts/42", { description: "Unlock this article about gardening" }))).toBe("content_paywall");
    expect(noiseOfItem(v2("https://files-x402.dev/get", { description: "Pay to retrieve a private file from our storage by CID" }))).toBe("content_paywall");
    expect(noiseOfItem(v2("https://news-x402.dev/read", { description: "Access to protected content" }))).toBe("content_paywall");
  });

  it("holds back token mints and sales", () => {
    expect(noiseOfItem(v2("https://coin-x402.dev/buy", { description: "Mint 10k $ZAP to your wallet" }))).toBe("token_mint");
    expect(noiseOfItem(v2("https://coin-x402.dev/buy", { description: "Pay 1 USDC → get 500 ZAP tokens" }))).toBe("token_mint");
    expect(noiseOfItem(v2("https://coin-x402.dev/buy", { description: "Tokens will be sent to your wallet after payment" }))).toBe("token_mint");
    expect(noiseOfItem(v2("https://coin-x402.dev/api/mint", { description: "Get your collectible" }))).toBe("token_mint");
    expect(noiseOfItem(v2("https://coin-x402.dev/buy", { description: "$ZAP" }))).toBe("token_mint");
    expect(noiseOfItem(v2("https://coin-x402.dev/buy", { description: "Buy 5 USDC worth of ZAP tokens" }))).toBe("token_mint");
    expect(noiseOfItem(v2("https://coin-x402.dev/art", { description: "A generative art NFT collection of abstract curves" }))).toBe("token_mint");
    // "mint" as a word of a path segment, whatever the description says.
    expect(noiseOfItem(v2("https://coin-x402.dev/x402/nft-mint/api/verify-and-mint", { description: "Botpay NFT minting API access" }))).toBe("token_mint");
    expect(noiseOfItem(v2("https://coin-x402.dev/mint-1000", { description: "Premium pack, best value" }))).toBe("token_mint");
    expect(noiseOfItem(v2("https://coin-x402.dev/api/projects/curves/x402_mint", { description: "A generative artwork of your own" }))).toBe("token_mint");
    // A read of what was minted, or of a token's mint address, is not one.
    expect(noiseOfItem(v2("https://api.chainlens-x402.dev/tokens/minted", { description: "Returns the newest tokens minted on the chain, with their creators" }))).toBeNull();
    expect(noiseOfItem(v2("https://api.chainlens-x402.dev/solana/mint-info", { description: "Supply, decimals and authorities of a Solana token by its mint address" }))).toBeNull();
  });
});

describe("host groups", () => {
  it("decides a group from its counts", () => {
    expect(groupVerdict({ short: true, repeatCount: GROUP_MIN, repeatKinds: 2, duplicateCount: 3 })).toBe("boilerplate_description");
    expect(groupVerdict({ short: true, repeatCount: GROUP_MIN, repeatKinds: 1, duplicateCount: GROUP_MIN })).toBe("duplicate_listing");
    expect(groupVerdict({ short: false, repeatCount: 40, repeatKinds: 8, duplicateCount: 4 })).toBeNull();
    expect(groupVerdict({ short: true, repeatCount: GROUP_MIN - 1, repeatKinds: 2, duplicateCount: 1 })).toBeNull();
  });

  it("keys on host, description and declared input; no key without a description", () => {
    const a = v2("https://api.feeds-x402.dev/a", { description: "Create an entry in a feed", extensions: declared({ feed: "string" }) });
    const b = v2("https://api.feeds-x402.dev/b", { description: "Create an  entry in a FEED", extensions: declared({ feed: "string" }) });
    const c = v2("https://api.feeds-x402.dev/c", { description: "Create an entry in a feed", extensions: declared({ title: "string" }) });
    const d = v2("https://other-x402.dev/a", { description: "Create an entry in a feed", extensions: declared({ feed: "string" }) });
    expect(groupKeysOf(a)).toEqual(groupKeysOf(b));
    expect(groupKeysOf(a)!.repeat).toBe(groupKeysOf(c)!.repeat);
    expect(groupKeysOf(a)!.duplicate).not.toBe(groupKeysOf(c)!.duplicate);
    expect(groupKeysOf(a)!.repeat).not.toBe(groupKeysOf(d)!.repeat);
    expect(groupKeysOf(v2("https://api.feeds-x402.dev/e", { description: "" }))).toBeNull();
  });

  it("a run's judge holds a group back once it reaches the minimum", () => {
    const judge = createNoiseJudge();
    const got = Array.from({ length: GROUP_MIN + 1 }, (_, i) => judge(v2(`https://api.orders-x402.dev/orders/${i}`, { description: "Order details for one order" })));
    expect(got.slice(0, GROUP_MIN - 1)).toEqual(Array(GROUP_MIN - 1).fill(null));
    expect(got.slice(GROUP_MIN - 1)).toEqual(["duplicate_listing", "duplicate_listing"]);
    // Short and shared by listings with different inputs: boilerplate.
    const j2 = createNoiseJudge();
    const mixed = Array.from({ length: GROUP_MIN }, (_, i) => j2(v2(`https://api.tools-x402.dev/t/${i}`, { description: "Useful agent tool", extensions: declared({ [`f${i}`]: "string" }) })));
    expect(mixed.at(-1)).toBe("boilerplate_description");
    // An earlier run's group verdict stays until this run's end decides again.
    expect(createNoiseJudge()(v2("https://api.orders-x402.dev/orders/9", { description: "Order details for one order" }), { state: "held_back", reason: "duplicate_listing" })).toBe("duplicate_listing");
  });
});
