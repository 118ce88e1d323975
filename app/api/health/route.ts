import { json, methods, requestIdOf } from "@/lib/http/route";

// Liveness only: no database, no wrapper work, so it measures the bare server.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: async (req) => json({ status: "ok" }, 200, { "X-Request-Id": requestIdOf(req) }),
});
