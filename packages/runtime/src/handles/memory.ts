/**
 * The default handle storage: everything in this process. Every operation is O(1) except
 * `dropSession`, which is linear in the session's entries. Maps and Sets iterate in insertion
 * order, so re-inserting an entry on use keeps them in least-recently-used-first order for free.
 */
import type { HandleRecord, HandleStorage, HandleUsage, StoredHandle } from "./storage.js";

interface SessionEntries {
  /** By id, least recently used first. */
  readonly handles: Map<string, StoredHandle>;
  bytes: number;
  counter: number;
}

export class MemoryHandleStorage implements HandleStorage {
  readonly #sessions = new Map<string, SessionEntries>();
  /** Every session's entries, least recently used first. */
  readonly #lru = new Set<StoredHandle>();
  #bytes = 0;

  async get(sessionId: string, id: string): Promise<HandleRecord | undefined> {
    return this.#sessions.get(sessionId)?.handles.get(id);
  }

  async value(sessionId: string, id: string): Promise<string | undefined> {
    return this.#sessions.get(sessionId)?.handles.get(id)?.json;
  }

  async put(handle: StoredHandle): Promise<void> {
    this.#remove(handle.sessionId, handle.id);
    this.#insert(this.#session(handle.sessionId), handle);
  }

  async touch(sessionId: string, id: string, lastUsed: number): Promise<void> {
    const session = this.#sessions.get(sessionId);
    const handle = session?.handles.get(id);
    if (session === undefined || handle === undefined) return;
    this.#remove(sessionId, id);
    // A new object rather than a mutation: records already handed out stay as they were read.
    this.#insert(session, { ...handle, lastUsed });
  }

  async delete(sessionId: string, id: string): Promise<void> {
    this.#remove(sessionId, id);
  }

  async oldest(sessionId?: string): Promise<HandleRecord | undefined> {
    const entries =
      sessionId === undefined
        ? this.#lru.values()
        : this.#sessions.get(sessionId)?.handles.values();
    return entries?.next().value;
  }

  async usage(sessionId?: string): Promise<HandleUsage> {
    if (sessionId === undefined) return { bytes: this.#bytes, handles: this.#lru.size };
    const session = this.#sessions.get(sessionId);
    return { bytes: session?.bytes ?? 0, handles: session?.handles.size ?? 0 };
  }

  async nextNumber(sessionId: string): Promise<number> {
    return ++this.#session(sessionId).counter;
  }

  async dropSession(sessionId: string): Promise<void> {
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return;
    for (const handle of session.handles.values()) {
      this.#lru.delete(handle);
      this.#bytes -= handle.size;
    }
    this.#sessions.delete(sessionId);
  }

  #session(sessionId: string): SessionEntries {
    let session = this.#sessions.get(sessionId);
    if (session === undefined) {
      session = { handles: new Map(), bytes: 0, counter: 0 };
      this.#sessions.set(sessionId, session);
    }
    return session;
  }

  #insert(session: SessionEntries, handle: StoredHandle): void {
    session.handles.set(handle.id, handle);
    session.bytes += handle.size;
    this.#lru.add(handle);
    this.#bytes += handle.size;
  }

  #remove(sessionId: string, id: string): void {
    const session = this.#sessions.get(sessionId);
    const handle = session?.handles.get(id);
    if (session === undefined || handle === undefined) return;
    session.handles.delete(id);
    session.bytes -= handle.size;
    this.#lru.delete(handle);
    this.#bytes -= handle.size;
  }
}
