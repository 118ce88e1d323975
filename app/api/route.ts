import { methods, route } from "@/lib/http/route";
import { buildDescriptor } from "@/lib/schemas/descriptor";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({ operation: "GET /", handler: ({ origin }) => buildDescriptor(origin) }),
});
