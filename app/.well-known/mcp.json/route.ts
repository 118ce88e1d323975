// The same server card at SEP-1649's /.well-known/mcp.json, which some clients still probe.
export { GET, POST, PUT, PATCH, DELETE } from "../mcp/server-card/route";
