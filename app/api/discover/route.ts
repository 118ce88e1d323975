import { discover } from "@/lib/discovery";
import { methods, route } from "@/lib/http/route";
import { discoverBodySchema } from "@/lib/schemas/discover";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route({
    operation: "POST /discover",
    policy: "discover",
    body: discoverBodySchema,
    // It only reads (its log is written later, in batches), so a cut connection is retried once.
    readOnly: true,
    handler: ({ db, body, principal }) => discover(db, body, principal),
  }),
});
