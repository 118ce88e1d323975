// Server start-up: warnings for unsafe switches, the database opened early, background work.
import { getDbHandle } from "@/lib/server/db";

export async function startServer() {
  (await import("@/lib/auth/startup")).prepareAuth();
  if (process.env.CAPDEX_RATE_LIMIT === "off") {
    console.warn("[capdex] WARNING: CAPDEX_RATE_LIMIT=off - rate limiting is disabled. Use this for benchmarks only.");
  }
  if (process.env.ALLOW_PRIVATE_TARGETS === "1") {
    console.warn("[capdex] WARNING: ALLOW_PRIVATE_TARGETS=1 - loopback/private targets and http:// are accepted. Tests and local development only.");
  }
  const t0 = Date.now();
  try {
    const handle = await getDbHandle();
    console.log(`[capdex] database ready (${handle.driver}) in ${Date.now() - t0} ms`);
    if (process.env.CAPDEX_WORKER !== "off") {
      await import("@/lib/jobs/all");
      const { startWorker } = await import("@/lib/jobs");
      startWorker(handle.db);
    }
  } catch (err) {
    // Requests answer 503 until the database can be reached; the next request retries.
    console.error("[capdex] database not reachable at start-up:", err instanceof Error ? err.message : err);
  }
}
