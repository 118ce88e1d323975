import { discover } from "@/lib/discovery";
import { methods, route } from "@/lib/http/route";
import { discoverBodySchema } from "@/lib/schemas/discover";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: route({
    operation: "POST /discover",
    policy: "discover",
    body: discoverBodySchema,
    // It only reads (its log is written later, in batches, on the primary), so a cut connection is
    // retried once; its registry is read through the read handle.
    readOnly: true,
    handler: ({ db, read, body, principal }) => discover(db, body, principal, read),
  }),
});
