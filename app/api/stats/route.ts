import { methods, route } from "@/lib/http/route";
import { getStats } from "@/lib/stats";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({
    policy: "stats",
    handler: ({ db }) => getStats(db),
  }),
});
