import { json, methods, requestIdOf } from "@/lib/http/route";
import { isDraining } from "@/lib/server/http-drain";

// Liveness only: no database, no wrapper work, so it measures the bare server. A load balancer's
// health check belongs here (not /api/ready, which fails on every instance while the database is
// down): it answers 503 only once this instance is shutting down.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: async (req) =>
    isDraining()
      ? json({ status: "draining" }, 503, { "X-Request-Id": requestIdOf(req), "Retry-After": "1" })
      : json({ status: "ok" }, 200, { "X-Request-Id": requestIdOf(req) }),
});
