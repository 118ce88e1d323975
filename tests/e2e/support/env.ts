// Fixed ports and addresses the e2e server and the specs agree on (playwright.config.ts passes them
// to the server's environment; specs start their loopback helpers on them).

/** The test DNS server (tests/helpers/dns-server.ts), started by the specs that need it. */
export const E2E_DNS_PORT = Number(process.env.E2E_DNS_PORT ?? 53_530);

/** The test SMTP server (tests/helpers/smtp-server.ts) that sign-in e-mails go to; started by account.spec.ts. */
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 52_525);
