import { methods, route } from "@/lib/http/route";
import { getListingStatus } from "@/lib/listings";
import { listingStatusQuerySchema } from "@/lib/schemas/listing-status";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({
    operation: "GET /listing_status",
    policy: "capabilities",
    query: listingStatusQuerySchema,
    handler: ({ read, query }) => getListingStatus(read, query.url),
  }),
});
