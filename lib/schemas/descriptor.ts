// GET /api: the service descriptor, and the list of public operations it names.
import { z } from "zod";

export const API_VERSION = "0.3";

export const OPERATIONS: Record<string, string> = {
  "POST /discover": "Find ranked endpoints by capability or intent",
  "GET /capabilities": "List all capabilities",
  "GET /capabilities/{id}": "One capability, optionally with its ranked endpoints",
  "GET /capabilities/proposals": "Open capability proposals, with the listings that would join them",
  "POST /capabilities/proposals": "Propose a capability the registry lacks (authenticated)",
  "GET /stats": "Public network statistics",
  "POST /submit": "Submit an endpoint for listing (DNS TXT domain verification)",
  "GET /submit/{id}": "State of a submission",
  "POST /submit/{id}/verify": "Check a submission's DNS TXT record now",
  "POST /report_outcome": "Report how a call to an endpoint went",
  "GET /provider/endpoints": "Your endpoints (API key): impressions, rank, reports, failing checks",
  "GET /provider/endpoints/{id}": "One of your endpoints, with the same figures",
  "PATCH /provider/endpoints/{id}": "Change your endpoint's price, networks, method or call (re-probed at once)",
  "POST /provider/endpoints/{id}/delist": "Take your endpoint out of discover",
  "POST /provider/endpoints/{id}/relist": "Put your delisted endpoint back (unverified until its probe passes)",
  "GET /x402/discovery/resources": "x402 discovery API (Bazaar): list payable endpoints; facilitator base URL {origin}/api/x402",
  "GET /listing_status": "Why an endpoint URL is or is not listed: states, reason codes and next steps",
  "GET /x402/discovery/search": "x402 discovery API (Bazaar): search payable endpoints in plain words, best first",
  "GET /openapi.json": "OpenAPI 3.1 description of this API",
  "GET /health": "Process liveness",
  "GET /ready": "Readiness: database reachable and migrated",
};

export const descriptorSchema = z
  .object({ name: z.string(), version: z.string(), docs: z.string(), endpoints: z.record(z.string(), z.string()) })
  .meta({ id: "Descriptor" });

export function buildDescriptor(origin: string) {
  return { name: "Capdex", version: API_VERSION, docs: `${origin}/docs`, endpoints: OPERATIONS };
}
