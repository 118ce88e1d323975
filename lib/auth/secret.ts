// AUTH_SECRET: required wherever instances share a database (each must sign with the same secret);
// for a local run on the embedded database one is generated once and kept in .data/auth-secret.
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { logger } from "@/lib/log";

export const LOCAL_SECRET_FILE = path.join(".data", "auth-secret");

export class AuthSecretMissingError extends Error {
  constructor() {
    super(
      "AUTH_SECRET is not set. Every Capdex instance that shares a database must sign sessions and sign-in links " +
        "with the same secret: generate one with `openssl rand -base64 33` and set AUTH_SECRET (see docs/auth.md).",
    );
    this.name = "AuthSecretMissingError";
  }
}

/** True when a generated per-machine secret is acceptable: an embedded-database run (one instance), or `next dev`. */
export function mayGenerateSecret(env: Record<string, string | undefined> = process.env): boolean {
  return !env.DATABASE_URL || env.NODE_ENV === "development";
}

export function resolveAuthSecret(env: Record<string, string | undefined> = process.env, file = LOCAL_SECRET_FILE): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  if (!mayGenerateSecret(env)) throw new AuthSecretMissingError();
  const target = path.resolve(/*turbopackIgnore: true*/ process.cwd(), file);
  try {
    return fs.readFileSync(target, "utf8").trim();
  } catch {
    /* first run: create it below */
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const secret = randomBytes(33).toString("base64url");
  try {
    // "wx": when two processes start together, the first writer wins and the other reads its secret.
    fs.writeFileSync(target, secret + "\n", { flag: "wx", mode: 0o600 });
    logger().warn({ file }, "AUTH_SECRET not set: generated one for local use (set AUTH_SECRET in production)");
    return secret;
  } catch {
    return fs.readFileSync(target, "utf8").trim();
  }
}
