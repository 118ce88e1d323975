// GET /capabilities/{id}: one capability, with its endpoints in default-rank order on request.
import type { Db } from "@/lib/db/client";
import { listRankedEndpoints } from "@/lib/discovery";
import { countEndpointsByCapability, getCapabilityOrThrow, toCapabilityOut } from "./index";

export async function getCapabilityDetail(db: Db, id: string, withEndpoints: boolean) {
  const cap = await getCapabilityOrThrow(db, id);
  if (!withEndpoints) return { ...toCapabilityOut(cap), aliases: cap.aliases, examples: cap.examples };
  const [endpoints, counts] = await Promise.all([listRankedEndpoints(db, cap.id), countEndpointsByCapability(db, [cap.id])]);
  return {
    ...toCapabilityOut(cap, counts.get(cap.id) ?? 0),
    aliases: cap.aliases,
    examples: cap.examples,
    endpoints,
  };
}
