// A TypeScript snippet that calls an endpoint and pays its 402 with the official @x402/fetch client.
import { withQuery } from "@/lib/discovery/call";
import type { EndpointCall } from "@/lib/schemas/call";

export function paySnippet(url: string, method: string, call: EndpointCall | null | undefined, networks: string[]): string {
  const solana = networks.length > 0 && networks.every((n) => n.startsWith("solana"));
  const example = call?.input.example;
  const target = call?.input.kind === "query" || !call ? withQuery(url, example) : url;
  const init =
    call?.input.kind === "body"
      ? `{\n  method: ${JSON.stringify(method)},\n  headers: { "Content-Type": "application/json" },\n  body: JSON.stringify(${JSON.stringify(example ?? {})}),\n}`
      : `{ method: ${JSON.stringify(method)} }`;
  const scheme = solana
    ? `import { registerExactSvmScheme } from "@x402/svm/exact/client";\nimport { createKeyPairSignerFromBytes } from "@solana/kit";\nimport { base58 } from "@scure/base";\n\nconst client = new x402Client();\nregisterExactSvmScheme(client, { signer: await createKeyPairSignerFromBytes(base58.decode(process.env.SVM_PRIVATE_KEY!)) });`
    : `import { registerExactEvmScheme } from "@x402/evm/exact/client";\nimport { privateKeyToAccount } from "viem/accounts";\n\nconst client = new x402Client();\nregisterExactEvmScheme(client, { signer: privateKeyToAccount(process.env.EVM_PRIVATE_KEY as \`0x\${string}\`) });`;
  return `import { x402Client, wrapFetchWithPayment } from "@x402/fetch";\n${scheme}\n\nconst fetchWithPayment = wrapFetchWithPayment(fetch, client);\nconst res = await fetchWithPayment(${JSON.stringify(target)}, ${init});\nconsole.log(res.status, await res.json());`;
}
