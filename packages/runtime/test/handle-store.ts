/** What the handle store tests share: a store on a fake clock, a stored value's id, the expected errors and rows. */
import { HandleStore, type HandleStoreOptions } from "../src/handles/store.js";
/** A store on a fake clock that the test moves by hand. */
export function fakeClock(options: HandleStoreOptions = {}): {
  store: HandleStore;
  clock: { t: number };
} {
  const clock = { t: 0 };
  return { store: new HandleStore({ ...options, now: () => clock.t }), clock };
}

/** The id of a value the test knows to be storable. */
export async function make(
  store: HandleStore,
  session: string,
  kind: string,
  value: unknown,
  summary = "s",
): Promise<string> {
  const created = await store.create(session, kind, value, summary);
  if (!created.ok) throw new Error(`create failed: ${created.error}`);
  return created.id;
}

const expiredHint = (id: string) =>
  `${id} has expired or does not exist in this session: call the tool that made it again`;
export const expired = (id: string) => ({
  ok: false,
  error: `expired:${id}`,
  hint: expiredHint(id),
});
export const invalid = (path: string, hint: string) => ({
  ok: false,
  error: `invalid:${path}`,
  hint,
});

export const ROWS = Array.from({ length: 10 }, (_, i) => ({ id: i, name: `n${i}`, qty: i * 2 }));
