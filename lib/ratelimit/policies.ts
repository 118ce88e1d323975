// The rate-limit table of API.md: one policy per operation, a limit per tier and a window.

export const POLICIES = {
  discover: { anonymous: 60, authenticated: 600, windowSeconds: 60 },
  capabilities: { anonymous: 120, authenticated: 1200, windowSeconds: 60 },
  report_outcome: { anonymous: 300, authenticated: 3000, windowSeconds: 60 },
  submit: { anonymous: 10, authenticated: 100, windowSeconds: 3600 },
  stats: { anonymous: 120, authenticated: 1200, windowSeconds: 60 },
  submission: { anonymous: 60, authenticated: 600, windowSeconds: 60 },
} as const;

export type PolicyName = keyof typeof POLICIES;

/** Operations whose answers may be served when the limiter's storage fails (reads). */
export const READ_POLICIES: ReadonlySet<PolicyName> = new Set(["discover", "capabilities", "stats"]);

/** Which operations each rate-limit policy covers (a new policy fails the type check until listed). */
export const POLICY_OPERATIONS: Record<PolicyName, string[]> = {
  discover: ["POST /discover"],
  capabilities: ["GET /capabilities", "GET /capabilities/{id}", "GET /x402/discovery/resources", "GET /x402/discovery/search", "GET /listing_status", "GET /capabilities/proposals"],
  report_outcome: ["POST /report_outcome"],
  submit: ["POST /submit", "POST /capabilities/proposals"],
  stats: ["GET /stats"],
  submission: [
    "GET /submit/{id}",
    "POST /submit/{id}/verify",
    "GET /provider/endpoints",
    "GET /provider/endpoints/{id}",
    "PATCH /provider/endpoints/{id}",
    "POST /provider/endpoints/{id}/delist",
    "POST /provider/endpoints/{id}/relist",
  ],
};
