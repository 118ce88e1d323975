// Who is calling: the anonymous client (by address) or the owner of an API key.
// The API-key tier lands with the accounts issue; until then every caller is anonymous.
import type { Db } from "@/lib/db/client";

export type Principal =
  | { kind: "anonymous"; key: string; ip: string }
  | { kind: "authenticated"; key: string; ip: string; apiKeyId: string; userId: string };

export async function resolvePrincipal(req: Request, _db: Db, _url: URL): Promise<Principal> {
  const ip = clientAddress(req);
  return { kind: "anonymous", key: `ip:${ip}`, ip };
}

/** The client's address as Next passes it on (x-forwarded-for set by the Node server). */
export function clientAddress(req: Request): string {
  const forwarded = req.headers.get("x-forwarded-for");
  const last = forwarded?.split(",").pop()?.trim();
  return last || "unknown";
}
