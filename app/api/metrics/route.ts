import { socketPeer } from "@/lib/auth/client-address";
import { peekDbHandle } from "@/lib/server/db";
import { methods, requestIdOf } from "@/lib/http/route";
import { problemResponse, siteOrigin } from "@/lib/http/problem";
import { metricsAccessProblem, renderMetrics } from "@/lib/metrics/exposition";

// Not through route(): the metrics must be served while the database is down, and they are no API
// operation (no rate limit, not counted in themselves).
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: async (req) => {
    const requestId = requestIdOf(req);
    const problem = metricsAccessProblem({
      authorization: req.headers.get("authorization"),
      peer: socketPeer(req),
      forwardedFor: req.headers.get("x-forwarded-for"),
    });
    if (problem) return problemResponse(problem, requestId, siteOrigin(new URL(req.url).origin));
    const { contentType, body } = await renderMetrics(await peekDbHandle());
    return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store", "X-Request-Id": requestId } });
  },
});
