// The same server card at the path earlier drafts and agent-readiness checkers look for.
export { GET, POST, PUT, PATCH, DELETE } from "../server-card/route";
