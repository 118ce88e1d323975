// Facts about listed endpoints that the ranked shape does not carry (demo listing, check state and
// its reason), read for the portal's tables only.
import { inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { endpoints } from "@/lib/db/schema";

export type EndpointFacts = {
  isDemo: boolean;
  checkState: string;
  lastCheckAt: Date | null;
  lastCheckReason: string | null;
};

export async function getEndpointFacts(db: Db, ids: string[]): Promise<Map<string, EndpointFacts>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({
      id: endpoints.id,
      isDemo: endpoints.isDemo,
      checkState: endpoints.checkState,
      lastCheckAt: endpoints.lastCheckAt,
      lastCheckReason: endpoints.lastCheckReason,
    })
    .from(endpoints)
    .where(inArray(endpoints.id, ids));
  return new Map(rows.map(({ id, ...facts }) => [id, facts]));
}
