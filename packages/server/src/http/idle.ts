/**
 * What both HTTP surfaces need to bound and expire their sessions: per session, the requests in
 * progress and when the last one started or ended; a sweep that expires sessions with none
 * running; and the room a new session needs, made by closing the least recently active idle
 * sessions (per client, then overall) rather than refusing the newcomer.
 */

/** Open sessions at most, by default. */
export const DEFAULT_MAX_SESSIONS = 1000;
/** Open sessions of one client at most, by default. */
export const DEFAULT_MAX_SESSIONS_PER_CLIENT = 100;
/** A session with no request for this long is closed, by default (30 minutes). */
export const DEFAULT_IDLE_MS = 30 * 60_000;

export interface Activity {
  /** Requests in progress (an open stream counts). */
  active: number;
  /** POST requests in progress: work a session must not lose (a GET stream only listens). */
  working: number;
  lastSeen: number;
  /** Who opened the session (its bearer identity, or its remote address). */
  readonly client: string;
}

export const idleActivity = (client: string): Activity => ({
  active: 0,
  working: 0,
  lastSeen: Date.now(),
  client,
});

/**
 * Marks a request of the session as running (`working`: a POST); call the returned function
 * when it has ended.
 */
export function beginRequest(activity: Activity, working: boolean): () => void {
  activity.active++;
  if (working) activity.working++;
  activity.lastSeen = Date.now();
  return () => {
    activity.active--;
    if (working) activity.working--;
    activity.lastSeen = Date.now();
  };
}

export interface SessionLimits {
  readonly maxSessions: number;
  readonly maxSessionsPerClient: number;
}

/**
 * The sessions to close so that one more from `client` fits: its least recently active session
 * without a POST in progress when it is at its cap, and the least recently active such session
 * overall when the table is full. A string (why) when no session can be closed: the newcomer
 * gets 503. A linear scan: at most `maxSessions` entries, only when a session opens.
 */
export function makeRoom<T extends Activity>(
  sessions: ReadonlyMap<string, T>,
  client: string,
  limits: SessionLimits,
): [string, T][] | string {
  const victims: [string, T][] = [];
  let own = 0;
  let ownOldest: [string, T] | undefined;
  let oldest: [string, T] | undefined;
  for (const pair of sessions) {
    const session = pair[1];
    const idle = session.working === 0;
    if (session.client === client) {
      own++;
      if (idle && (!ownOldest || session.lastSeen < ownOldest[1].lastSeen)) ownOldest = pair;
    }
    if (idle && (!oldest || session.lastSeen < oldest[1].lastSeen)) oldest = pair;
  }
  if (own >= limits.maxSessionsPerClient) {
    if (!ownOldest) return "too many open sessions for this client";
    victims.push(ownOldest);
  }
  // Closing one of the client's own sessions made room in the table as well.
  if (sessions.size - victims.length >= limits.maxSessions) {
    if (!oldest) return "too many open sessions";
    victims.push(oldest);
  }
  return victims;
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
