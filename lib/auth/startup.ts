// Start-up of the accounts feature: stamp requests with their socket address (lib/auth/client-address)
// and refuse to start without AUTH_SECRET where one is required (lib/auth/secret).
import { installPeerStamp, trustedHops } from "./client-address";
import { AuthSecretMissingError, resolveAuthSecret } from "./secret";

export function prepareAuth(): void {
  installPeerStamp();
  const hops = trustedHops();
  if (hops) console.log(`[capdex] TRUST_PROXY_HOPS=${hops}: the client address is taken from X-Forwarded-For, ${hops} hop(s) from the right`);
  try {
    resolveAuthSecret();
  } catch (err) {
    if (!(err instanceof AuthSecretMissingError)) throw err;
    console.error(`[capdex] FATAL: ${err.message}`);
    process.exit(1);
  }
}
