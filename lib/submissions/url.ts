// Which endpoint URLs may be submitted: https on a public host name (no IP literal in any spelling,
// no userinfo, no special-use or internal name, not a bare public suffix), normalised so that one
// endpoint has one spelling (lower-case ASCII host without the trailing dot, no fragment).
import { domainToASCII, domainToUnicode } from "node:url";
import ipaddr from "ipaddr.js";
import { parse as parsePsl } from "tldts";
import { ApiError } from "@/lib/http/errors";

export type EndpointTarget = {
  /** The normalised URL, as listed. */
  url: string;
  /** Lower-case ASCII (punycode) host name, no trailing dot (or a loopback address in private mode). */
  host: string;
  /** Registrable domain (public suffix list, private suffixes honoured); the host itself when it has none. */
  domain: string;
};

export const MAX_URL_LENGTH = 2048;
// `_capdex-challenge.` + host must fit the 253 characters of a DNS name.
export const MAX_HOST_LENGTH = 253 - "_capdex-challenge.".length;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
// RFC 6761/6762/7686/8375/9476 names and the ICANN-reserved .internal: never publicly resolvable or
// not anyone's to prove. Most are not in the public suffix list at all; these few are, or are
// registrable under a listed suffix.
const SPECIAL_USE_SUFFIXES = ["onion", "arpa", "example.com", "example.net", "example.org"];

export function privateTargetsAllowed(): boolean {
  return process.env.ALLOW_PRIVATE_TARGETS === "1";
}

function invalid(detail: string, pointer = "#/endpoint_url"): never {
  throw new ApiError("validation_failed", `endpoint_url: ${detail}`, { errors: [{ pointer, detail }] });
}

/**
 * Checks a submitted URL and returns its normalised form, host and registrable domain, or throws
 * 422 validation_failed pointing at the field. `allowPrivate` (ALLOW_PRIVATE_TARGETS=1) also takes
 * http://, loopback addresses and special-use names, for tests and local development.
 */
export function checkEndpointUrl(raw: string, opts: { allowPrivate?: boolean; pointer?: string } = {}): EndpointTarget {
  const allowPrivate = opts.allowPrivate ?? privateTargetsAllowed();
  const fail = (detail: string) => invalid(detail, opts.pointer);
  if (raw.length > MAX_URL_LENGTH) fail(`At most ${MAX_URL_LENGTH} characters.`);
  // The URL parser silently drops tabs and newlines and reads "\" as "/"; a listed URL must mean
  // exactly what it says, so such characters are refused rather than repaired.
  if (/[\s\\\u0000-\u001f\u007f]/.test(raw)) fail("Must not contain white space, control characters or backslashes.");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== "https" && !(allowPrivate && scheme === "http")) {
    fail(scheme ? `Use https:// (not ${scheme}:).` : "Must be an absolute https:// URL.");
  }
  if (!/^https?:\/\/[^/]/i.test(raw)) fail("Must be an absolute URL of the form https://host/path.");
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return fail("Not a valid URL.");
  }
  if (u.username || u.password || /^https?:\/\/[^/?#]*@/i.test(raw)) fail("Must not contain a user name or password.");

  // The parser has already turned every IPv4 spelling (2130706433, 0x7f.1, 0177.0.0.1, 127.1) into
  // dotted decimal, so two shapes cover every IP literal.
  const parsedHost = u.hostname;
  if (parsedHost.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(parsedHost)) {
    const address = parsedHost.replace(/^\[|\]$/g, "");
    if (!(allowPrivate && ipaddr.isValid(address) && ipaddr.process(address).range() === "loopback")) {
      fail("Use a host name, not an IP address.");
    }
    return { url: withoutFragment(u), host: parsedHost, domain: parsedHost };
  }

  const host = parsedHost.replace(/\.$/, "");
  if (host !== parsedHost) u.hostname = host;
  if (!host) fail("Must name a host.");
  if (host.length > MAX_HOST_LENGTH) fail(`The host name may be at most ${MAX_HOST_LENGTH} characters.`);
  const labels = host.split(".");
  if (!labels.every((l) => LABEL.test(l))) {
    fail("The host name may only hold letters, digits and hyphens, in dot-separated labels of 1 to 63 characters.");
  }
  if (labels.some((l) => l.startsWith("xn--") && !isPunycode(l))) fail("The host name holds invalid punycode.");

  const psl = parsePsl(host, { allowPrivateDomains: true });
  const special =
    host === "localhost" ||
    SPECIAL_USE_SUFFIXES.some((s) => host === s || host.endsWith(`.${s}`)) ||
    !(psl.isIcann || psl.isPrivate);
  if (special && !allowPrivate) {
    fail(`"${host}" is a special-use or internal name, not a public host name.`);
  }
  if (!special && !psl.domain) {
    fail(`"${host}" is a public suffix, not a domain anyone can own; use a host name under it.`);
  }
  return { url: withoutFragment(u), host, domain: psl.domain ?? host };
}

function withoutFragment(u: URL): string {
  u.hash = "";
  return u.href;
}

/** A host name as Capdex compares them: lower-case ASCII, no trailing dot. */
export function normalizeHostName(name: string): string {
  const trimmed = name.trim().replace(/\.$/, "");
  try {
    return new URL(`https://${trimmed}/`).hostname.replace(/\.$/, "");
  } catch {
    return trimmed.toLowerCase();
  }
}

// A valid punycode label decodes to Unicode and encodes back to itself. Node 20 answered "" for a
// label that does not decode; Node 24 (ada) hands such a label back unchanged, so test both ways.
function isPunycode(label: string): boolean {
  const unicode = domainToUnicode(label);
  return unicode !== "" && unicode !== label && domainToASCII(unicode) === label;
}
