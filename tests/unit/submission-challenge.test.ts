import { describe, expect, it } from "vitest";
import type { TxtLookup } from "@/lib/dns/resolver";
import { challengeNames, evaluateLookups, joinTxtRecord, newChallengeToken, recordValueFor, tokenOf } from "@/lib/submissions/challenge";

const names = challengeNames("api.acme.com", "acme.com");
const lookup = (name: string, status: TxtLookup["status"], records: string[][] = []): TxtLookup => ({ name, status, records });

describe("the challenge token", () => {
  it("holds at least 128 random bits and is DNS- and URL-safe", () => {
    const tokens = new Set(Array.from({ length: 200 }, newChallengeToken));
    expect(tokens.size).toBe(200);
    for (const t of tokens) {
      expect(t).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(t, "base64url").length * 8).toBeGreaterThanOrEqual(128);
    }
  });

  it("is looked for at the host, then at the registrable domain", () => {
    expect(names).toEqual([
      { recordName: "_capdex-challenge.api.acme.com", covers: "api.acme.com" },
      { recordName: "_capdex-challenge.acme.com", covers: "acme.com" },
    ]);
    expect(challengeNames("acme.com", "acme.com")).toHaveLength(1);
  });
});

describe("reading TXT records", () => {
  it("joins the strings of one record and trims quotes and white space", () => {
    expect(joinTxtRecord(["capdex-verification=abc", "def"])).toBe("capdex-verification=abcdef");
    expect(joinTxtRecord(['  "capdex-verification=abc" '])).toBe("capdex-verification=abc");
    expect(tokenOf("Capdex-Verification=abc")).toBe("abc");
    expect(tokenOf("v=spf1 -all")).toBeNull();
  });

  it("matches the token exactly (case and length count)", () => {
    const t = "AbCdEf0123456789AbCdEf0123456789";
    const check = (value: string) => evaluateLookups([names[0]], [lookup(names[0].recordName, "found", [[value]])], [t]);
    expect(check(recordValueFor(t)).verified).toBe(true);
    expect(check(recordValueFor(t.toLowerCase())).reason).toBe("token_mismatch");
    expect(check(recordValueFor(t + "x")).reason).toBe("token_mismatch");
    expect(check(recordValueFor(t.slice(1))).reason).toBe("token_mismatch");
  });
});

describe("evaluateLookups", () => {
  it("says where the record was found and which name it covers", () => {
    const r = evaluateLookups(names, [lookup(names[0].recordName, "nxdomain"), lookup(names[1].recordName, "found", [["capdex-verification=", "tok"], ["v=spf1"]])], ["tok"]);
    expect(r).toMatchObject({ verified: true, recordName: "_capdex-challenge.acme.com", coveredName: "acme.com", reason: "verified" });
    expect(r.foundRecords).toEqual(["capdex-verification=tok", "v=spf1"]);
  });

  it("prefers the most useful reason when nothing matches", () => {
    const reason = (a: TxtLookup["status"], b: TxtLookup["status"], recs: string[][] = []) =>
      evaluateLookups(names, [lookup(names[0].recordName, a, recs), lookup(names[1].recordName, b)], ["tok"]).reason;
    expect(reason("nxdomain", "nxdomain")).toBe("nxdomain");
    expect(reason("nxdomain", "no_records")).toBe("no_records");
    expect(reason("nxdomain", "servfail")).toBe("servfail");
    expect(reason("timeout", "nxdomain")).toBe("timeout");
    expect(reason("found", "nxdomain", [["v=spf1"]])).toBe("no_challenge_record");
    expect(reason("found", "timeout", [["capdex-verification=other"]])).toBe("token_mismatch");
  });

  it("keeps the foreign tokens so another submission's can be recognised", () => {
    const r = evaluateLookups([names[0]], [lookup(names[0].recordName, "found", [["capdex-verification=theirs"]])], ["mine"]);
    expect(r.verified).toBe(false);
    expect(r.otherTokens).toEqual(["theirs"]);
    expect(r.detail).toContain("_capdex-challenge.api.acme.com");
  });
});
