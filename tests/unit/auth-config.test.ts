import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AuthSecretMissingError, mayGenerateSecret, resolveAuthSecret } from "@/lib/auth/secret";
import { isAdmin } from "@/lib/auth/admin";
import { isSameOrigin } from "@/lib/auth/origin";
import { safeCallbackUrl, signInErrorMessage } from "@/lib/auth/redirects";
import { renderSignInEmail } from "@/lib/auth/email";
import { trustHost } from "@/auth.config";

const tmp = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "capdex-auth-")), "auth-secret");

describe("AUTH_SECRET", () => {
  it("uses AUTH_SECRET when it is set", () => {
    expect(resolveAuthSecret({ AUTH_SECRET: "s3cret", DATABASE_URL: "postgres://x", NODE_ENV: "production" }, tmp())).toBe("s3cret");
  });

  it("is required in production on a shared database, with a message that says what to do", () => {
    expect(() => resolveAuthSecret({ DATABASE_URL: "postgres://x", NODE_ENV: "production" }, tmp())).toThrow(AuthSecretMissingError);
    expect(() => resolveAuthSecret({ DATABASE_URL: "postgres://x", NODE_ENV: "production" }, tmp())).toThrow(/openssl rand/);
    // Any shared-database run but `next dev` (tests run servers with NODE_ENV=test, too).
    expect(() => resolveAuthSecret({ DATABASE_URL: "postgres://x", NODE_ENV: "test" }, tmp())).toThrow(AuthSecretMissingError);
    expect(mayGenerateSecret({ DATABASE_URL: "postgres://x", NODE_ENV: "development" })).toBe(true);
  });

  it("is generated once for local runs and kept (mode 600) for the next start", () => {
    const file = tmp();
    expect(mayGenerateSecret({ NODE_ENV: "production" })).toBe(true);
    const first = resolveAuthSecret({ NODE_ENV: "production" }, file);
    expect(first.length).toBeGreaterThanOrEqual(40);
    expect(resolveAuthSecret({ NODE_ENV: "production" }, file)).toBe(first);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe("host trust", () => {
  it("follows AUTH_TRUST_HOST, else trusts the host only for local runs", () => {
    expect(trustHost({ AUTH_TRUST_HOST: "true", DATABASE_URL: "postgres://x", NODE_ENV: "production" })).toBe(true);
    expect(trustHost({ AUTH_TRUST_HOST: "false" })).toBe(false);
    expect(trustHost({ NODE_ENV: "production" })).toBe(true);
    expect(trustHost({ DATABASE_URL: "postgres://x", NODE_ENV: "production" })).toBeUndefined();
  });
});

describe("ADMIN_EMAILS", () => {
  it("names operators by address, in any case", () => {
    const env = { ADMIN_EMAILS: "Ops@Example.com, root@example.org" };
    expect(isAdmin("ops@example.com", env)).toBe(true);
    expect(isAdmin("ROOT@example.org", env)).toBe(true);
    expect(isAdmin("someone@example.com", env)).toBe(false);
    expect(isAdmin(null, env)).toBe(false);
    expect(isAdmin("ops@example.com", {})).toBe(false);
  });
});

describe("Origin check for cookie-authenticated posts", () => {
  const h = (o: Record<string, string>) => new Headers(o);
  it("accepts our own origin and refuses others, a missing one and 'null'", () => {
    expect(isSameOrigin(h({ origin: "http://127.0.0.1:3210", host: "127.0.0.1:3210" }), {})).toBe(true);
    expect(isSameOrigin(h({ origin: "https://evil.example", host: "127.0.0.1:3210" }), {})).toBe(false);
    expect(isSameOrigin(h({ host: "127.0.0.1:3210" }), {})).toBe(false);
    expect(isSameOrigin(h({ origin: "null", host: "127.0.0.1:3210" }), {})).toBe(false);
  });
  it("uses the configured public origin when there is one", () => {
    const env = { CAPDEX_ORIGIN: "https://capdex.example" };
    expect(isSameOrigin(h({ origin: "https://capdex.example", host: "internal:3000" }), env)).toBe(true);
    expect(isSameOrigin(h({ origin: "http://internal:3000", host: "internal:3000" }), env)).toBe(false);
  });
});

describe("after sign-in", () => {
  it("goes only to paths on this site", () => {
    expect(safeCallbackUrl("/account?x=1")).toBe("/account?x=1");
    for (const bad of ["https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)", "", null, 42, "/a\nb"]) {
      expect(safeCallbackUrl(bad)).toBe("/account");
    }
  });
  it("explains each sign-in error, and unknown ones generically", () => {
    expect(signInErrorMessage("TooManyEmails")).toMatch(/Too many/);
    expect(signInErrorMessage("<script>")).toBe("Sign-in did not work. Try again.");
    expect(signInErrorMessage(undefined)).toBeNull();
  });
});

describe("the sign-in e-mail", () => {
  it("carries the link in text and HTML, escaped", () => {
    const url = "http://127.0.0.1:3210/api/auth/callback/nodemailer?callbackUrl=%2Faccount&token=abc&email=a%40b.c";
    const m = renderSignInEmail(url, new Date(Date.now() + 3600_000));
    expect(m.subject).toBe("Sign in to Capdex");
    expect(m.text).toContain(url);
    expect(m.text).toMatch(/60 minutes/);
    expect(m.html).toContain(url.replace(/&/g, "&amp;"));
  });
});

describe("the URL Auth.js sees", () => {
  it("is rebuilt from the Host the browser used when the host is trusted", async () => {
    const { NextRequest } = await import("next/server");
    const { withPublicOrigin } = await import("@/lib/auth/public-url");
    // What `next start -H 127.0.0.1` hands a route handler: its own listen address in the URL.
    const req = new NextRequest("http://localhost:3412/api/auth/signin/nodemailer?x=1", { headers: { host: "127.0.0.1:3412" } });
    expect(withPublicOrigin(req, {}).url).toBe("http://127.0.0.1:3412/api/auth/signin/nodemailer?x=1");
    // AUTH_URL set: next-auth rewrites it; an untrusted host: left alone (Auth.js refuses it).
    expect(withPublicOrigin(req, { AUTH_URL: "https://capdex.example" }).url).toBe(req.url);
    expect(withPublicOrigin(req, { AUTH_TRUST_HOST: "false" }).url).toBe(req.url);
    const evil = new NextRequest("http://localhost:3412/api/auth/csrf", { headers: { host: "evil.example/<x>" } });
    expect(withPublicOrigin(evil, {}).url).toBe(evil.url);
  });
});
