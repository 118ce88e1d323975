// Where the test run's seeded starting points are (set by tests/helpers/global-setup.ts).
export const TEMPLATE_ENV = { empty: "CAPDEX_TEST_TEMPLATE_DB", demo: "CAPDEX_TEST_TEMPLATE_DEMO_DB" } as const;
export const SNAPSHOT_ENV = { empty: "CAPDEX_TEST_PGLITE_EMPTY", demo: "CAPDEX_TEST_PGLITE_DEMO" } as const;

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
