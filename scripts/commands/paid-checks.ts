// `npm run cli -- paid-checks status|run [--endpoint <id>]`: paid test calls (docs/paid-checks.md)
// with the settings of the environment. Prints the wallet's address, never its key.
import { budgetsToday, checkEndpointById, paidCheckStartupNotes, readPaidCheckConfig, recentChecks, runPaidCheckPass } from "@/lib/paid-checks";
import { flag, registerCommand } from "../cli";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const usd = (micros: number) => `$${(micros / 1e6).toFixed(4)}`;

registerCommand("paid-checks", {
  summary: "paid test calls: status (settings, today's budgets, latest checks) or run one pass now (--endpoint: one endpoint)",
  usage: "paid-checks status|run [--endpoint <id>]",
  run: async (args, { open }) => {
    const sub = args[0];
    if (sub !== "status" && sub !== "run") {
      console.error("usage: npm run cli -- paid-checks status|run [--endpoint <id>]");
      return 2;
    }
    const notes = paidCheckStartupNotes();
    for (const w of notes.warnings) console.error(`warning: ${w}`);
    const { config } = readPaidCheckConfig();
    const h = await open();
    try {
      if (sub === "status") {
        console.log(notes.info ?? "paid test calls are off (no CAPDEX_PAID_CHECK_KEY or no usable CAPDEX_PAID_CHECK_BUDGETS)");
        const spent = new Map((await budgetsToday(h.db)).map((b) => [b.network, b]));
        for (const n of config?.networks.values() ?? []) {
          const b = spent.get(n.caip2);
          console.log(`${n.name} (${n.caip2}): spent ${usd(b?.spent_micros ?? 0)} of ${usd(n.budgetMicros)} today in ${b?.payments ?? 0} payment(s)`);
        }
        for (const c of await recentChecks(h.db)) console.log(JSON.stringify(c));
        return 0;
      }
      if (!config) {
        console.error("paid test calls are off: set CAPDEX_PAID_CHECK_KEY (or _FILE), CAPDEX_PAID_CHECK_BUDGETS and CAPDEX_RPC_URLS");
        return 1;
      }
      const endpoint = flag(args, "--endpoint");
      if (endpoint !== undefined) {
        if (!UUID.test(endpoint)) {
          console.error("--endpoint takes an endpoint id");
          return 2;
        }
        console.log(JSON.stringify(await checkEndpointById(h.db, endpoint, config)));
        return 0;
      }
      console.log(JSON.stringify(await runPaidCheckPass(h.db, { config })));
      return 0;
    } finally {
      await h.close();
    }
  },
});
