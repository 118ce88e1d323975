// The DNS TXT challenge: a random token per submission, published as
// `capdex-verification=<token>` at `_capdex-challenge.<host>` or `_capdex-challenge.<registrable domain>`.
import { randomBytes } from "node:crypto";
import { lookupTxt, type TxtLookup } from "@/lib/dns/resolver";

export const RECORD_PREFIX = "_capdex-challenge.";
export const VALUE_PREFIX = "capdex-verification=";
/** Pending submissions expire after this long without the record. */
export const CHALLENGE_TTL_DAYS = 7;
/** Both names are looked up in parallel; a silent resolver answers "timeout" after this. */
export const LOOKUP_DEADLINE_MS = 3500;

export type CheckReason =
  | "verified"
  | "no_records"
  | "nxdomain"
  | "servfail"
  | "refused"
  | "timeout"
  | "dns_error"
  | "no_challenge_record"
  | "token_mismatch"
  | "token_of_another_submission";

export type ChallengeCheck = {
  verified: boolean;
  /** The name the matching record was found at (host or registrable domain). */
  recordName: string | null;
  /** The name that record covers: the host, or the registrable domain and every host under it. */
  coveredName: string | null;
  /** Every TXT value found at the names looked up, strings of one record joined. */
  foundRecords: string[];
  /** Tokens of capdex-verification records that did not match (to tell another submission's apart). */
  otherTokens: string[];
  reason: CheckReason;
  detail: string;
};

/** 192 random bits, base64url: URL- and DNS-safe, and unguessable. */
export function newChallengeToken(): string {
  return randomBytes(24).toString("base64url");
}

export function recordNameFor(name: string): string {
  return RECORD_PREFIX + name;
}

export function recordValueFor(token: string): string {
  return VALUE_PREFIX + token;
}

/** The names a record may sit at for a host: the host itself, then its registrable domain. */
export function challengeNames(host: string, domain: string): Array<{ recordName: string; covers: string }> {
  const names = [{ recordName: recordNameFor(host), covers: host }];
  if (domain !== host) names.push({ recordName: recordNameFor(domain), covers: domain });
  return names;
}

/** One TXT record as one value: its character strings joined, quotes and white space trimmed. */
export function joinTxtRecord(strings: string[]): string {
  return strings.join("").replace(/^[\s"']+|[\s"']+$/g, "");
}

/** The token of a `capdex-verification=` value (prefix case-insensitive), or null for other records. */
export function tokenOf(value: string): string | null {
  if (value.slice(0, VALUE_PREFIX.length).toLowerCase() !== VALUE_PREFIX) return null;
  return value.slice(VALUE_PREFIX.length).trim();
}

const FAILURE_ORDER: CheckReason[] = ["token_mismatch", "servfail", "refused", "timeout", "dns_error", "no_challenge_record", "no_records", "nxdomain"];

const DETAILS: Record<CheckReason, string> = {
  verified: "The record was found.",
  no_records: "The name exists but has no TXT record.",
  nxdomain: "The name does not exist in DNS (NXDOMAIN); add the TXT record.",
  servfail: "The domain's DNS servers failed to answer (SERVFAIL); check its DNS set-up and try again.",
  refused: "The DNS server refused the query; try again shortly.",
  timeout: "The DNS lookup timed out; try again shortly.",
  dns_error: "The DNS lookup failed; try again shortly.",
  no_challenge_record: "TXT records exist there, but none starts with capdex-verification=.",
  token_mismatch: "A capdex-verification record was found, but its token is not this submission's.",
  token_of_another_submission: "The record found holds the token of another submission; publish this submission's record_value.",
};

/** Looks the challenge up at every name that may hold it and says whether `tokens` is there. */
export async function checkChallenge(host: string, domain: string, tokens: string[]): Promise<ChallengeCheck> {
  const names = challengeNames(host, domain);
  const lookups = await Promise.all(names.map((n) => lookupTxt(n.recordName, { deadlineMs: LOOKUP_DEADLINE_MS })));
  return evaluateLookups(names, lookups, tokens);
}

/** Pure part of checkChallenge: the verdict for what the lookups returned. */
export function evaluateLookups(
  names: Array<{ recordName: string; covers: string }>,
  lookups: TxtLookup[],
  tokens: string[],
): ChallengeCheck {
  const wanted = new Set(tokens);
  const found: string[] = [];
  const otherTokens: string[] = [];
  const reasons: CheckReason[] = [];
  for (const [i, lookup] of lookups.entries()) {
    const values = lookup.records.map(joinTxtRecord);
    found.push(...values);
    const match = values.map(tokenOf).find((t) => t !== null && wanted.has(t));
    if (match !== undefined) {
      const { recordName, covers } = names[i];
      return { verified: true, recordName, coveredName: covers, foundRecords: unique(found), otherTokens, reason: "verified", detail: DETAILS.verified };
    }
    const foreign = values.map(tokenOf).filter((t): t is string => t !== null);
    otherTokens.push(...foreign);
    if (foreign.length) reasons.push("token_mismatch");
    else if (lookup.status === "found") reasons.push("no_challenge_record");
    else reasons.push(lookup.status === "error" ? "dns_error" : lookup.status);
  }
  const reason = FAILURE_ORDER.find((r) => reasons.includes(r)) ?? "no_records";
  return { verified: false, recordName: null, coveredName: null, foundRecords: unique(found), otherTokens: unique(otherTokens), reason, detail: describeFailure(reason, names) };
}

export function describeFailure(reason: CheckReason, names: Array<{ recordName: string }>): string {
  const where = names.map((n) => n.recordName).join(" or ");
  return `${DETAILS[reason]} Looked up TXT at ${where}.`;
}

/** Transient DNS trouble, as opposed to an answer that the record is not there. */
export function isTransient(reason: CheckReason): boolean {
  return reason === "servfail" || reason === "refused" || reason === "timeout" || reason === "dns_error";
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}
