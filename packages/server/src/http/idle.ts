/**
 * What both HTTP surfaces need to close idle sessions: per session, the requests in progress
 * and when the last one started or ended, and a sweep that expires sessions with none running.
 */

/** Open sessions at most, by default. */
export const DEFAULT_MAX_SESSIONS = 1000;
/** A session with no request for this long is closed, by default (30 minutes). */
export const DEFAULT_IDLE_MS = 30 * 60_000;

export interface Activity {
  /** Requests in progress (an open stream counts). */
  active: number;
  lastSeen: number;
}

export const idleActivity = (): Activity => ({ active: 0, lastSeen: Date.now() });

/** Marks a request of the session as running; call the returned function when it has ended. */
export function beginRequest(activity: Activity): () => void {
  activity.active++;
  activity.lastSeen = Date.now();
  return () => {
    activity.active--;
    activity.lastSeen = Date.now();
  };
}

/**
 * Every `min(idleMs, 60 s)`, calls `expire` for each session that has had no request running
 * for `idleMs`. The timer does not keep the process alive; clear it when the server closes.
 */
export function sweepIdle<T extends Activity>(
  sessions: ReadonlyMap<string, T>,
  idleMs: number,
  expire: (id: string, session: T) => void,
): Sweep {
  const timer = setInterval(
    () => {
      const oldest = Date.now() - idleMs;
      for (const [id, session] of sessions)
        if (session.active === 0 && session.lastSeen < oldest) expire(id, session);
    },
    Math.min(idleMs, 60_000),
  );
  // Node's and Bun's timers have unref; elsewhere (Deno: a number) the timer is left as it is.
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

/** The sweep's timer, for `clearInterval`. */
export type Sweep = ReturnType<typeof setInterval>;
