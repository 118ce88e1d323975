import { rejectKeyInQuery } from "@/lib/auth/principal";
import { problemResponse, siteOrigin, toApiError } from "@/lib/http/problem";
import { json, methods, nextTurn, requestIdOf } from "@/lib/http/route";
import { isDraining } from "@/lib/server/http-drain";

// Liveness only: no database, no wrapper work, so it measures the bare server. A load balancer's
// health check belongs here (not /api/ready, which fails on every instance while the database is
// down): it answers 503 only once this instance is shutting down. Like every operation it refuses
// an API key in the query string (400): such a key ends up in logs. It answers a turn of the event
// loop later, as every API answer does (lib/http/route.ts, nextTurn).
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: async (req) => {
    await nextTurn();
    const requestId = requestIdOf(req);
    const url = new URL(req.url);
    try {
      if (url.search) rejectKeyInQuery(url);
    } catch (err) {
      return problemResponse(toApiError(err), requestId, siteOrigin(url.origin));
    }
    return isDraining()
      ? json({ status: "draining" }, 503, { "X-Request-Id": requestId, "Retry-After": "1" })
      : json({ status: "ok" }, 200, { "X-Request-Id": requestId });
  },
});
