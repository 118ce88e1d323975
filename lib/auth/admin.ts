// Operators: the e-mail addresses listed in ADMIN_EMAILS (comma or space separated, any case).

export function adminEmails(env: Record<string, string | undefined> = process.env): Set<string> {
  return new Set(
    (env.ADMIN_EMAILS ?? "")
      .split(/[\s,]+/)
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  );
}

export function isAdmin(email: string | null | undefined, env: Record<string, string | undefined> = process.env): boolean {
  return !!email && adminEmails(env).has(email.trim().toLowerCase());
}
