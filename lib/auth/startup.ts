// Start-up of the accounts feature: stamp requests with their socket address (lib/auth/client-address)
// and refuse to start without AUTH_SECRET where one is required (lib/auth/secret).
import { installPeerStamp, trustedHops } from "./client-address";
import { AuthSecretMissingError, resolveAuthSecret } from "./secret";
import { flushLog, logger } from "@/lib/log";

export function prepareAuth(): void {
  installPeerStamp();
  const hops = trustedHops();
  if (hops) logger().info({ hops }, "TRUST_PROXY_HOPS: the client address is taken from X-Forwarded-For, this many hops from the right");
  try {
    resolveAuthSecret();
  } catch (err) {
    if (!(err instanceof AuthSecretMissingError)) throw err;
    logger().fatal(err.message);
    flushLog();
    process.exit(1);
  }
}
