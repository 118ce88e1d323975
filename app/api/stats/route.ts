import { json, methods, route } from "@/lib/http/route";
import { STATS_CACHE_MS, getStats } from "@/lib/stats";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({
    operation: "GET /stats",
    policy: "stats",
    // The same for every caller, so shared caches may keep it as long as an instance does.
    handler: async ({ read }) =>
      json(await getStats(read), 200, { "Cache-Control": `public, max-age=${Math.floor(STATS_CACHE_MS / 1000)}` }),
  }),
});
