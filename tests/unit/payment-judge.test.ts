// The verdict on a mined transaction against what an endpoint asks (lib/payments/verify.ts), for the
// cases a local chain cannot easily produce (old blocks, reverted payments) and the rules' edges.
import { describe, expect, it } from "vitest";
import { PAYMENT_WINDOW, askingOn, judgeTransfers } from "@/lib/payments/verify";
import { rpcUrls } from "@/lib/payments/rpc";

const TOKEN = "0x" + "a".repeat(40);
const OTHER = "0x" + "b".repeat(40);
const PAYTO = "0x" + "c".repeat(40);
const PAYER = "0x" + "d".repeat(40);
const asking = [{ asset: TOKEN, payTo: PAYTO, amount: 10_000n }];
const now = new Date("2026-12-01T12:00:00Z");
const tx = (transfers: Array<{ asset?: string; from?: string; to?: string; value: bigint }>, minutesAgo = 1, status: "success" | "reverted" = "success") => ({
  status,
  blockTime: new Date(now.getTime() - minutesAgo * 60_000),
  transfers: transfers.map((t) => ({ asset: t.asset ?? TOKEN, from: t.from ?? PAYER, to: t.to ?? PAYTO, value: t.value })),
});

describe("judgeTransfers", () => {
  it("verifies a transfer of the asking amount to the pay-to, naming the payer the chain shows", () => {
    expect(judgeTransfers({}, asking, tx([{ value: 10_000n }]), now)).toMatchObject({ reason: null, payer: PAYER, amount: 10_000n });
    expect(judgeTransfers({ payer: PAYER.toUpperCase().replace("0X", "0x") }, asking, tx([{ value: 10_000n }]), now).reason).toBeNull();
  });

  it("sums the payer's transfers to the pay-to within one transaction", () => {
    expect(judgeTransfers({}, asking, tx([{ value: 6_000n }, { value: 4_000n }]), now).reason).toBeNull();
    expect(judgeTransfers({}, asking, tx([{ value: 6_000n }, { value: 3_999n }]), now).reason).toBe("underpaid");
  });

  it("gives each refusal its code", () => {
    expect(judgeTransfers({}, asking, tx([{ value: 10_000n }], 1, "reverted"), now).reason).toBe("tx_failed");
    expect(judgeTransfers({}, asking, tx([]), now).reason).toBe("not_a_transfer");
    expect(judgeTransfers({}, asking, tx([{ asset: OTHER, value: 10_000n }]), now).reason).toBe("wrong_asset");
    expect(judgeTransfers({}, asking, tx([{ to: OTHER, value: 10_000n }]), now).reason).toBe("wrong_recipient");
    expect(judgeTransfers({ payer: OTHER }, asking, tx([{ value: 10_000n }]), now).reason).toBe("wrong_payer");
    expect(judgeTransfers({}, asking, tx([{ value: 10_000n }], PAYMENT_WINDOW.maxAgeMinutes + 1), now).reason).toBe("too_old");
    expect(judgeTransfers({}, asking, tx([{ value: 10_000n }], PAYMENT_WINDOW.maxAgeMinutes - 1), now).reason).toBeNull();
    expect(judgeTransfers({}, asking, tx([{ value: 10_000n }], -(PAYMENT_WINDOW.clockSlackMinutes + 1)), now).reason).toBe("too_new");
  });
});

describe("askingOn and rpcUrls", () => {
  it("reads the exact offers of one network from a 402, by friendly name or CAIP-2", () => {
    const seen = {
      x402_version: 2,
      resource: {},
      via: "probe" as const,
      accepts: [
        { scheme: "exact", network: "eip155:84532", amount: "10000", asset: TOKEN.toUpperCase().replace("0X", "0x"), payTo: PAYTO, maxTimeoutSeconds: 60, extra: null },
        { scheme: "exact", network: "base", amount: "5", asset: TOKEN, payTo: PAYTO, maxTimeoutSeconds: 60, extra: null },
        { scheme: "upto", network: "eip155:84532", amount: "1", asset: TOKEN, payTo: PAYTO, maxTimeoutSeconds: 60, extra: null },
        { scheme: "exact", network: "eip155:84532", amount: "1.5", asset: TOKEN, payTo: PAYTO, maxTimeoutSeconds: 60, extra: null },
      ],
    };
    expect(askingOn(seen, "eip155:84532")).toEqual([{ asset: TOKEN, payTo: PAYTO, amount: 10_000n }]);
    expect(askingOn(seen, "eip155:8453")).toEqual([{ asset: TOKEN, payTo: PAYTO, amount: 5n }]);
    expect(askingOn(null, "eip155:8453")).toEqual([]);
  });

  it("parses CAPDEX_RPC_URLS, ignoring unknown networks and non-http URLs", () => {
    const m = rpcUrls("base=https://rpc.example/base, eip155:84532=http://127.0.0.1:8545,nowhere=http://x,polygon=ftp://x,ethereum");
    expect([...m]).toEqual([
      ["eip155:8453", "https://rpc.example/base"],
      ["eip155:84532", "http://127.0.0.1:8545"],
    ]);
  });
});
