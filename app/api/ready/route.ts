import { methods, route } from "@/lib/http/route";
import { checkReadiness } from "@/lib/db/readiness";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({ handler: ({ db }) => checkReadiness(db) }),
});
