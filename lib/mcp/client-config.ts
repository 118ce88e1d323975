// Ready-to-paste snippets that add Capdex to MCP clients, for the /docs page and docs/mcp.md.
// Pure data (no server imports), so a page or a client component can render it.

export const API_KEY_PLACEHOLDER = "cdx_YOUR_API_KEY";

export type McpClientSnippet = {
  id: "generic" | "claude-code" | "claude-code-json" | "claude-desktop" | "cursor" | "vscode";
  client: string;
  /** Where the snippet goes (a file path or "terminal"). */
  where: string;
  language: "json" | "bash";
  code: string;
  note?: string;
};

export type McpClientConfig = { url: string; snippets: McpClientSnippet[] };

const json = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * Snippets for the MCP endpoint at `${origin}/api/mcp`. Without a key a client is anonymous
 * (60 discover calls a minute); `apiKey` (or the placeholder) gives the authenticated tier.
 */
export function mcpClientConfig(origin: string, opts: { apiKey?: string; withKey?: boolean } = {}): McpClientConfig {
  const url = `${origin.replace(/\/+$/, "")}/api/mcp`;
  const key = opts.apiKey ?? API_KEY_PLACEHOLDER;
  const withKey = opts.withKey ?? true;
  const headers = withKey ? { headers: { Authorization: `Bearer ${key}` } } : {};
  return {
    url,
    snippets: [
      {
        id: "generic",
        client: "Any MCP client (mcpServers format)",
        where: "the client's MCP configuration file",
        language: "json",
        code: json({ mcpServers: { capdex: { type: "http", url, ...headers } } }),
        note: "Streamable HTTP transport. Leave out headers to use Capdex anonymously.",
      },
      {
        id: "claude-code",
        client: "Claude Code",
        where: "terminal",
        language: "bash",
        code: `claude mcp add --transport http capdex ${url}` + (withKey ? ` \\\n  --header "Authorization: Bearer ${key}"` : ""),
        note: "Add --scope user to have Capdex in every project.",
      },
      {
        id: "claude-code-json",
        client: "Claude Code (project file)",
        where: ".mcp.json",
        language: "json",
        code: json({ mcpServers: { capdex: { type: "http", url, ...headers } } }),
        note: "Keep real keys out of files you commit.",
      },
      {
        id: "claude-desktop",
        client: "Claude Desktop",
        where: "claude_desktop_config.json",
        language: "json",
        code: json({
          mcpServers: {
            capdex: {
              command: "npx",
              args: ["-y", "mcp-remote", url, ...(withKey ? ["--header", "Authorization:${CAPDEX_AUTH}"] : [])],
              ...(withKey ? { env: { CAPDEX_AUTH: `Bearer ${key}` } } : {}),
            },
          },
        }),
        note: "Anonymous use needs no file: add the URL under Settings > Connectors. With a key, mcp-remote bridges the header.",
      },
      {
        id: "cursor",
        client: "Cursor",
        where: "~/.cursor/mcp.json (or .cursor/mcp.json in a project)",
        language: "json",
        code: json({ mcpServers: { capdex: { url, ...headers } } }),
      },
      {
        id: "vscode",
        client: "VS Code",
        where: ".vscode/mcp.json",
        language: "json",
        code: json({ servers: { capdex: { type: "http", url, ...headers } } }),
      },
    ],
  };
}
