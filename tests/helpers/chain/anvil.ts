// A real local EVM chain for payment tests: anvil (from @foundry-rs/anvil, whose binary ships in the
// platform package) on a loopback port, with the chain id of Base Sepolia so that Capdex's network
// names apply, and TestUSDC.sol (compiled here with solc-js) deployed on it. Keys are generated per
// run and funded through anvil_setBalance; none is written anywhere.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  publicActions,
  type Abi,
  type Address,
  type Chain,
  type Hex,
  type HttpTransport,
  type PublicActions,
  type PublicClient,
  type WalletClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";

export const CHAIN_ID = 84532; // base-sepolia
const require = createRequire(import.meta.url);

function anvilBinary(): string {
  const pkg = `@foundry-rs/anvil-${process.platform === "win32" ? "win32" : process.platform}-${process.arch === "x64" ? "amd64" : process.arch}`;
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

let compiled: { abi: Abi; bytecode: Hex } | null = null;

/** TestUSDC's ABI and bytecode (compiled once per process). */
export function testUsdcArtifact(): { abi: Abi; bytecode: Hex } {
  if (compiled) return compiled;
  const solc = require("solc") as { compile(input: string): string };
  const source = readFileSync(new URL("./TestUSDC.sol", import.meta.url), "utf8");
  const out = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { "TestUSDC.sol": { content: source } },
        settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "paris", outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
      }),
    ),
  ) as { errors?: Array<{ severity: string; formattedMessage: string }>; contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>> };
  const errors = (out.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const c = out.contracts["TestUSDC.sol"].TestUSDC;
  compiled = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  return compiled;
}

export type LocalChain = {
  rpcUrl: string;
  chain: Chain;
  publicClient: PublicClient;
  /** A fresh account holding `eth` ether for gas. */
  account(eth?: bigint): Promise<PrivateKeyAccount>;
  wallet(account: PrivateKeyAccount): Wallet;
  /** Deploys a TestUSDC; returns its address. */
  deployToken(deployer: PrivateKeyAccount): Promise<Address>;
  close(): Promise<void>;
};

export type Wallet = WalletClient<HttpTransport, Chain, PrivateKeyAccount> & PublicActions<HttpTransport, Chain>;

function walletOf(chain: Chain, rpcUrl: string, account: PrivateKeyAccount): Wallet {
  return createWalletClient({ account, chain, transport: http(rpcUrl) }).extend(publicActions) as unknown as Wallet;
}

export async function startAnvil(): Promise<LocalChain> {
  const port = await freePort();
  const proc: ChildProcess = spawn(anvilBinary(), ["--host", "127.0.0.1", "--port", String(port), "--chain-id", String(CHAIN_ID), "--accounts", "0", "--silent"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  proc.stderr?.on("data", (d) => (stderr += String(d)));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  const rpcUrl = `http://127.0.0.1:${port}`;
  const chain = defineChain({
    id: CHAIN_ID,
    name: "anvil (base-sepolia id)",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl, { retryCount: 0 }) }) as PublicClient;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      if ((await publicClient.getChainId()) === CHAIN_ID) break;
    } catch {
      // not listening yet
    }
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`anvil did not start: ${stderr.slice(0, 500)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    rpcUrl,
    chain,
    publicClient,
    async account(eth = 10n ** 18n) {
      const account = privateKeyToAccount(generatePrivateKey());
      await publicClient.request({ method: "anvil_setBalance" as never, params: [account.address, `0x${eth.toString(16)}`] as never });
      return account;
    },
    wallet: (account) => walletOf(chain, rpcUrl, account),
    async deployToken(deployer) {
      const { abi, bytecode } = testUsdcArtifact();
      const w = walletOf(chain, rpcUrl, deployer);
      const hash = await w.deployContract({ abi, bytecode });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (!receipt.contractAddress) throw new Error("TestUSDC was not deployed");
      return receipt.contractAddress;
    },
    async close() {
      if (proc.exitCode === null) {
        proc.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
        if (proc.exitCode === null) proc.kill("SIGKILL");
      }
    },
  };
}
