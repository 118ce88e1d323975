// Where a portal page goes when the database fails it (lib/portal/unavailable.ts): 503 with
// Retry-After, and a reload of the page asked for. It reads no database.
import { unavailableResponse } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";

export function GET(req: Request): Response {
  return unavailableResponse(new URL(req.url).searchParams.get("page"));
}

export function HEAD(req: Request): Response {
  return unavailableResponse(new URL(req.url).searchParams.get("page"), "HEAD");
}
