import { methods, route } from "@/lib/http/route";
import { buildDescriptor } from "@/lib/schemas/descriptor";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: route({ handler: ({ origin }) => buildDescriptor(origin) }),
});
