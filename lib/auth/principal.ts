// Who is calling: the anonymous client (by address) or the owner of an API key (Bearer). A bad key
// is refused outright, never downgraded to anonymous; a key in the URL is refused before it is used.
import type { Db } from "@/lib/db/client";
import { ApiError, toPointer } from "@/lib/http/errors";
import { clientAddress } from "./client-address";
import { findKeyOwner, touchApiKey } from "./keys";
import { KEY_LIKE } from "./key-format";
import { errorFields, logger } from "@/lib/log";

export { clientAddress } from "./client-address";

export type Principal =
  | { kind: "anonymous"; key: string; ip: string }
  | { kind: "authenticated"; key: string; ip: string; apiKeyId: string; userId: string };

/** Query parameters that carry credentials in other APIs; a key there ends up in logs and histories. */
const CREDENTIAL_PARAMS = new Set(["api_key", "apikey", "api-key", "key", "token", "access_token", "authorization"]);

const WWW_AUTHENTICATE = { "WWW-Authenticate": 'Bearer realm="capdex", error="invalid_token"' };

export async function resolvePrincipal(req: Request, db: Db, url: URL): Promise<Principal> {
  rejectKeyInQuery(url);
  const ip = clientAddress(req);
  const authorization = req.headers.get("authorization");
  if (authorization === null) return { kind: "anonymous", key: `ip:${ip}`, ip };
  const match = /^\s*Bearer +(\S+)\s*$/i.exec(authorization);
  if (!match) {
    throw new ApiError("invalid_api_key", "Send the key as `Authorization: Bearer cdx_...`.", { headers: WWW_AUTHENTICATE });
  }
  const owner = await findKeyOwner(db, match[1]);
  if (!owner) {
    throw new ApiError("invalid_api_key", "This API key is unknown, malformed or revoked; create one at /account.", {
      headers: WWW_AUTHENTICATE,
    });
  }
  try {
    await touchApiKey(db, owner.apiKeyId);
  } catch (err) {
    // A missed "last used" stamp must not fail the request that used the key.
    logger().warn(errorFields(err), "could not record key use");
  }
  return { kind: "authenticated", key: `key:${owner.apiKeyId}`, ip, apiKeyId: owner.apiKeyId, userId: owner.userId };
}

/** 400 when the URL carries something that looks like a credential (by name or by value). */
export function rejectKeyInQuery(url: URL): void {
  for (const [name, value] of url.searchParams) {
    if (CREDENTIAL_PARAMS.has(name.toLowerCase()) || KEY_LIKE.test(value) || KEY_LIKE.test(name)) {
      throw new ApiError(
        "bad_request",
        "API keys are never accepted in the URL (they end up in logs); send `Authorization: Bearer <key>`, and revoke a key that was sent this way.",
        { errors: [{ pointer: toPointer([name]), detail: "A credential in the query string." }] },
      );
    }
  }
}
