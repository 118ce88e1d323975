// `npm run cli -- probe <endpoint-id|--all>`: probe now (ignoring the schedule) and print the results.
import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/client";
import { probeEndpoint, type ProbeResult } from "@/lib/probes";
import { flag, registerCommand } from "../cli";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

registerCommand("probe", {
  summary: "probe one endpoint, or every listed non-demo endpoint (--all), now; prints each result",
  usage: "probe <endpoint-id|--all> [--concurrency N]",
  run: async (args, { open }) => {
    const target = args[0];
    if (!target || (target !== "--all" && !UUID.test(target))) {
      console.error("usage: npm run cli -- probe <endpoint-id|--all> [--concurrency N]");
      return 2;
    }
    const concurrency = Math.max(1, Number(flag(args, "--concurrency") ?? 8) || 8);
    const h = await open();
    try {
      const ids =
        target === "--all"
          ? (await queryRows<{ id: string }>(h.db, sql`select id from endpoints where status = 'listed' and not is_demo order by url`)).map((r) => r.id)
          : [target];
      let failed = 0;
      const queue = [...ids];
      const worker = async () => {
        for (let id = queue.shift(); id; id = queue.shift()) {
          const result = await probeEndpoint(h.db, id);
          if (!result.skipped && !result.ok) failed += 1;
          console.log(format(result));
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
      if (target === "--all") console.log(`probed ${ids.length} endpoint(s), ${failed} failing check(s)`);
      return failed ? 1 : 0;
    } finally {
      await h.close();
    }
  },
});

function format(r: ProbeResult): string {
  if (r.skipped) return JSON.stringify({ endpoint_id: r.endpointId, skipped: r.skipped });
  return JSON.stringify({
    endpoint_id: r.endpointId,
    ok: r.ok,
    reason: r.reason,
    status: r.status,
    latency_ms: r.latencyMs,
    check_state: r.state?.checkState ?? null,
    consecutive_failures: r.state?.consecutiveFailures ?? null,
    next_check_at: r.state?.nextCheckAt.toISOString() ?? null,
    detail: r.detail,
  });
}
