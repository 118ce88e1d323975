// The paid part of the fleet test (docs/paid-checks.md, docs/ranking.md "Payment evidence"): a local
// EVM chain (anvil) with an EIP-3009 token, four paid x402 resources on loopback (@x402/hono with a
// local facilitator that settles on that chain; three honest, one that takes the money and answers
// garbage), listed as endpoints with a declared call. Two workers, both holding Capdex's wallet and
// one day's budget, race to run the paid test calls (the job is claimed once per run, each check
// once per endpoint, each payment reserved against the budget before it is signed); the two web
// instances verify payment evidence on the request path, and the same transaction reported through
// both at once backs one report only.
import { randomUUID } from "node:crypto";
import type postgres from "postgres";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { startAnvil, testUsdcArtifact, type LocalChain } from "../../tests/helpers/chain/anvil";
import { paidResourceCall, payAndCall, startPaidServer, type PaidAnswer, type PaidServer } from "../../tests/helpers/chain/x402-paid";

/** 0.01 test USDC (6 decimals) per call. */
export const PRICE = 10_000n;
/** The day's budget: three and a half calls' worth, so three are paid and a fourth never is. */
export const BUDGET_USD = "0.035";
export const BUDGET_CALLS = 3;
const ANSWERS: PaidAnswer[] = ["honest", "honest", "honest", "garbage"];
const CAPABILITY = "weather.forecast";

export type Seller = { id: string; answer: PaidAnswer; payTo: PrivateKeyAccount; server: PaidServer };

export class PaidWorld {
  readonly sellers: Seller[] = [];
  private constructor(
    readonly chain: LocalChain,
    readonly token: Address,
    private readonly deployer: PrivateKeyAccount,
    /** Capdex's paying wallet: its key goes to the workers' environment and nowhere else. */
    readonly key: Hex,
  ) {}

  static async start(): Promise<PaidWorld> {
    const chain = await startAnvil();
    const deployer = await chain.account();
    const token = await chain.deployToken(deployer);
    const world = new PaidWorld(chain, token, deployer, generatePrivateKey());
    await world.mint(world.wallet, 1_000_000n);
    return world;
  }

  get wallet(): Address {
    return privateKeyToAccount(this.key).address;
  }

  /** Every process: the chain's RPC, so that an instance can verify evidence. */
  commonEnv(): Record<string, string> {
    return { CAPDEX_RPC_URLS: `base-sepolia=${this.chain.rpcUrl}` };
  }

  /** The paying workers besides: the wallet, the budget, the token as an accepted asset, a quick schedule, loopback targets. */
  payingEnv(): Record<string, string> {
    return {
      CAPDEX_PAID_CHECK_KEY: this.key,
      CAPDEX_PAID_CHECK_BUDGETS: `base-sepolia=${BUDGET_USD}`,
      CAPDEX_PAID_CHECK_ASSETS: `base-sepolia=${this.token}`,
      CAPDEX_PAID_CHECK_EVERY_MS: "1000",
      CAPDEX_PAID_CHECK_PER_RUN: "2",
      ALLOW_PRIVATE_TARGETS: "1",
      PROBE_TICK_MS: "1000",
    };
  }

  async mint(to: Address, value: bigint): Promise<void> {
    const hash = await this.chain.wallet(this.deployer).writeContract({ address: this.token, abi: testUsdcArtifact().abi, functionName: "mint", args: [to, value] });
    await this.chain.publicClient.waitForTransactionReceipt({ hash });
  }

  async balanceOf(address: Address): Promise<bigint> {
    return (await this.chain.publicClient.readContract({ address: this.token, abi: testUsdcArtifact().abi, functionName: "balanceOf", args: [address] })) as bigint;
  }

  /** What the sellers' pay-to addresses hold together. */
  async received(): Promise<bigint> {
    return (await Promise.all(this.sellers.map((s) => this.balanceOf(s.payTo.address)))).reduce((a, b) => a + b, 0n);
  }

  /** The four resources, listed under one provider as verified endpoints of CAPABILITY with a declared call. */
  async list(db: postgres.Sql): Promise<void> {
    const providerId = randomUUID();
    await db`insert into providers (id, name) values (${providerId}, 'Fleet paid weather')`;
    for (const answer of ANSWERS) {
      const payTo = await this.chain.account(0n);
      // A facilitator account per seller: one account settling two payments at once would race for its nonce.
      const facilitator = await this.chain.account();
      const server = await startPaidServer(this.chain, { token: this.token, payTo: payTo.address, amount: String(PRICE), facilitator, answer });
      const id = randomUUID();
      const call = paidResourceCall();
      await db`insert into endpoints (id, capability_id, provider_id, url, host, domain, price_per_call, network, networks, check_state, status, call)
        values (${id}, ${CAPABILITY}, ${providerId}, ${server.url}, '127.0.0.1', '127.0.0.1', 0.01, 'base-sepolia', '{base-sepolia}', 'unverified', 'listed', ${db.json(call as never)})`;
      this.sellers.push({ id, answer, payTo, server });
    }
  }

  /** A caller's paid call to the first honest seller: its settlement (PAYMENT-RESPONSE). */
  async paidCall(): Promise<{ transaction: string; network: string; payer?: string }> {
    const payer = await this.chain.account();
    await this.mint(payer.address, 100_000n);
    const paid = await payAndCall(this.chain, payer, this.sellers[0].server.url, this.token, String(PRICE));
    if (paid.status !== 200) throw new Error(`the paid call answered ${paid.status}`);
    return paid.settlement;
  }

  async close(): Promise<void> {
    await Promise.all(this.sellers.map((s) => s.server.close()));
    await this.chain.close();
  }
}
