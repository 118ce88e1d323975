// Helpers for tests that run against the Postgres named by DATABASE_URL.
export const TEMPLATE_DB_ENV = "CAPDEX_TEST_TEMPLATE_DB";

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
