// Why an outbound request did not produce a response: stable snake_case codes the probes store.

export type NetErrorCode =
  | "invalid_url"
  | "insecure_scheme"
  | "private_address"
  | "dns_failed"
  | "timeout"
  | "connection_failed"
  | "tls_error"
  | "headers_too_large"
  | "protocol_error"
  /** The caller gave up (its AbortSignal): the process is stopping. Says nothing of the target. */
  | "aborted";

export class NetError extends Error {
  readonly code: NetErrorCode;
  constructor(code: NetErrorCode, message: string) {
    super(message);
    this.name = "NetError";
    this.code = code;
  }
}

/** Maps a socket, TLS or HTTP-parser error onto our codes (never leaking the raw message upward). */
export function toNetError(err: unknown): NetError {
  if (err instanceof NetError) return err;
  const code = String((err as NodeJS.ErrnoException | undefined)?.code ?? "");
  if (code === "HPE_HEADER_OVERFLOW") return new NetError("headers_too_large", "response headers too large");
  if (code.startsWith("HPE_")) return new NetError("protocol_error", `invalid HTTP response (${code})`);
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/.test(code)) {
    return new NetError("tls_error", `TLS failed (${code})`);
  }
  if (/^(ENOTFOUND|ENODATA|ESERVFAIL|EREFUSED|ETIMEOUT|ECANCELLED)$/.test(code)) {
    return new NetError("dns_failed", `name did not resolve (${code})`);
  }
  return new NetError("connection_failed", code ? `connection failed (${code})` : "connection failed");
}
