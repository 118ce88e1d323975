// Every background job of Capdex. Each feature registers its jobs in its own module; importing
// them here is what puts them on the schedule (server and `npm run worker` alike).
import "@/lib/outcomes/jobs";
import "@/lib/stats/jobs";
import "@/lib/discovery/jobs";
import "@/lib/probes/jobs";
import "@/lib/ratelimit/jobs";
import "@/lib/auth/jobs";
import "@/lib/submissions/jobs";
import "@/lib/imports/jobs";
