// The client against a Capdex with the demo data (`npm run dev`, CAPDEX_SEED=demo):
//   npx tsx clients/typescript/examples/demo.ts "current weather in Oslo"
//   CAPDEX_URL=https://capdex.example CAPDEX_API_KEY=cdx_... EVM_PRIVATE_KEY=0x... npx tsx clients/typescript/examples/demo.ts --call "..."
// Without --call it only discovers. With --call it calls the best endpoint, falls back down the list
// on failure and reports every attempt. The demo endpoints are fictional hosts, so calling them fails
// with a connection error (reported as `other`): run --call against real listings. With
// EVM_PRIVATE_KEY set, 402 answers are paid through @x402/fetch with that key (USDC on the
// endpoint's EVM network); without it nothing is ever paid.
import { CapdexClient } from "../src/index";

const args = process.argv.slice(2);
const doCall = args.includes("--call");
const intent = args.filter((a) => a !== "--call").join(" ") || "current weather in Oslo";
const baseUrl = process.env.CAPDEX_URL ?? "http://localhost:3000";

async function payingFetch(): Promise<typeof fetch | undefined> {
  const key = process.env.EVM_PRIVATE_KEY;
  if (!key) return undefined;
  const [{ payingFetchOf, x402Client }, { registerExactEvmScheme }, { privateKeyToAccount }] = await Promise.all([
    import("../src/x402"),
    import("@x402/evm/exact/client"),
    import("viem/accounts"),
  ]);
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: privateKeyToAccount(key as `0x${string}`) });
  return payingFetchOf(client);
}

async function main() {
  const client = new CapdexClient({ baseUrl, apiKey: process.env.CAPDEX_API_KEY, payingFetch: await payingFetch(), timeoutMs: 10_000 });
  const found = await client.discover({ intent, preferences: { limit: 5 } });
  console.log(`"${intent}" -> ${found.resolved.capability_id} (confidence ${found.resolved.confidence.toFixed(2)})`);
  for (const [i, e] of found.ranked_endpoints.entries()) {
    const price = e.payment.price_per_call === 0 ? "free" : `$${e.payment.price_per_call} on ${(e.payment.networks?.length ? e.payment.networks : [e.payment.network]).join("/")}`;
    console.log(`  ${i + 1}. ${e.provider_name}  ${e.method} ${e.url}  ${price}  score ${e.score.toFixed(3)}`);
  }
  if (!doCall) return;
  const result = await client.call({ capability_id: found.resolved.capability_id, preferences: { limit: 5 } });
  for (const a of result.attempts) {
    console.log(`  tried ${a.endpoint.url}: ${a.ok ? "ok" : `failed (${a.failure}${a.status ? `, HTTP ${a.status}` : ""}${a.error ? `: ${a.error}` : ""})`} in ${a.latency_ms} ms; reported: ${a.report ? "yes" : "no"}`);
  }
  console.log(result.ok ? `answer: ${JSON.stringify(result.data).slice(0, 300)}` : "no endpoint answered");
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
