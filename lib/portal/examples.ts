// Copyable examples for agents: curl command lines built from the same bodies the portal sends.

/** Quote a string for a POSIX shell. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function curlGet(url: string): string {
  return `curl -s ${shellQuote(url)}`;
}

export function curlPostJson(url: string, body: unknown, opts: { auth?: boolean } = {}): string {
  const lines = [`curl -s -X POST ${shellQuote(url)}`, `  -H 'Content-Type: application/json'`];
  if (opts.auth) lines.push(`  -H "Authorization: Bearer $CAPDEX_API_KEY"`);
  // Pretty-printed: a single-quoted shell string may span lines, and people read it.
  lines.push(`  -d ${shellQuote(JSON.stringify(body, null, 2))}`);
  return lines.join(" \\\n");
}
