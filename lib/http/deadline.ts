// One bound on a piece of work: its result, or `timeout()`'s error once `ms` have passed first. The
// timer is cleared either way; the work is not cancelled, and its late end (an error included) is
// dropped. Used by the API's route wrapper, portal pages and payment verification.

export function withDeadline<T>(work: Promise<T>, ms: number, timeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  work.catch(() => {});
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeout()), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
