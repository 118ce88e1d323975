// Fixed ports and addresses the e2e server and the specs agree on (playwright.config.ts passes them
// to the server's environment; specs start their loopback helpers on them).

/** The test DNS server (tests/helpers/dns-server.ts), started by the specs that need it. */
export const E2E_DNS_PORT = Number(process.env.E2E_DNS_PORT ?? 53_530);
