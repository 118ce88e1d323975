// The operator CLI: `npm run cli -- <command>`. Commands live in scripts/commands/*.ts.
import { openDb, type DbHandle } from "@/lib/db/client";
import { assertSupportedRuntime } from "@/lib/server/runtime";
import { seedDatabase, seedModeFromEnv, seedScale, type SeedMode } from "@/lib/seed";
import { logToStderr } from "@/lib/log";

// The CLI's stdout is its answer (a new key alone on the last line); what the library logs goes to stderr.
logToStderr();

export type Command = {
  summary: string;
  usage: string;
  run: (args: string[], ctx: { open: () => Promise<DbHandle> }) => Promise<number | void>;
};

const commands: Record<string, Command> = {
  migrate: {
    summary: "apply the committed migrations",
    usage: "migrate",
    run: async (_args, { open }) => {
      const h = await open();
      console.log(`migrated (${h.driver})`);
      await h.close();
    },
  },
  seed: {
    summary: "seed the database: --mode demo|catalogue|none (default CAPDEX_SEED or demo), or --scale N (N capabilities, 20N endpoints)",
    usage: "seed [--mode demo|catalogue|none] [--scale N [--per-capability 20] [--reports R] [--rollup-reports K]]",
    run: async (args, { open }) => {
      const scale = flag(args, "--scale");
      const h = await open();
      const t0 = Date.now();
      if (scale) {
        const n = Number(scale);
        if (!Number.isInteger(n) || n < 10) throw new Error("--scale takes a whole number >= 10");
        const int = (name: string) => {
          const v = flag(args, name);
          if (v === undefined) return undefined;
          if (!/^\d+$/.test(v)) throw new Error(`${name} takes a whole number`);
          return Number(v);
        };
        const counts = await seedScale(h.db, n, {
          endpointsPerCapability: int("--per-capability"),
          reportsPerCapability: int("--reports"),
          rollupReportsPerEndpoint: int("--rollup-reports"),
          log: (m) => console.log(m),
        });
        console.log(JSON.stringify(counts));
      } else {
        const mode = (flag(args, "--mode") ?? seedModeFromEnv()) as SeedMode;
        const counts = await seedDatabase(h.db, seedModeFromEnv(mode));
        console.log(JSON.stringify(counts));
      }
      console.log(`seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      await h.close();
    },
  },
};

export function registerCommand(name: string, command: Command) {
  commands[name] = command;
}

export function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main() {
  assertSupportedRuntime();
  await loadExtraCommands();
  const [name, ...args] = process.argv.slice(2);
  const command = name ? commands[name] : undefined;
  if (!command) {
    console.log("usage: npm run cli -- <command> [args]\n");
    for (const c of Object.values(commands)) console.log(`  ${c.usage.padEnd(48)} ${c.summary}`);
    process.exit(name && name !== "help" ? 2 : 0);
  }
  const open = () => openDb({ url: process.env.DATABASE_URL || undefined });
  try {
    const code = await command.run(args, { open });
    process.exit(typeof code === "number" ? code : 0);
  } catch (err) {
    console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}

/** Every module in scripts/commands registers its commands when imported. */
async function loadExtraCommands() {
  const { readdirSync } = await import("node:fs");
  const path = await import("node:path");
  const dir = path.join(process.cwd(), "scripts", "commands");
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".ts"));
  } catch {
    return;
  }
  for (const f of files.sort()) await import(path.join(dir, f));
}

main();
