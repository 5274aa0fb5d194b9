/**
 * What the start-up children share: phase marks (ms from the previous mark; the first phase,
 * `boot`, is the time from the process's time origin to the first mark: Node start-up and
 * loading the child script) and the JSON line they end with.
 */
export type Mark = ((phase: string) => void) & { readonly times: Record<string, number> };

export function phases(): Mark {
  const times: Record<string, number> = { boot: performance.now() };
  let last = times.boot!;
  const mark = (phase: string) => {
    const now = performance.now();
    times[phase] = now - last;
    last = now;
  };
  return Object.assign(mark, { times });
}

export function printResult(mark: Mark, result: object): void {
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const phasesMs = Object.fromEntries(
    Object.entries(mark.times).map(([phase, ms]) => [phase, round(ms)]),
  );
  // Peak resident memory of this process (KiB on Linux).
  const maxRssMiB = Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
  process.stdout.write(`${JSON.stringify({ phasesMs, maxRssMiB, ...result })}\n`);
}

/**
 * Connects an SDK `Client` to `server` over `InMemoryTransport` (phase `connect`) and asks for
 * `tools/list` (phase `list`, the listing serialized as sent). The SDK modules are already
 * loaded by the caller's `import` phase, so importing them here costs nothing.
 *
 * `client.request` rather than `client.listTools`: listTools also compiles an Ajv validator
 * per output schema on the client, a client cost (and only the zcp listing has output schemas).
 */
export async function listThroughClient(
  server: {
    connect(
      transport: import("@modelcontextprotocol/sdk/shared/transport.js").Transport,
    ): Promise<void>;
  },
  mark: Mark,
): Promise<{
  tools: import("@modelcontextprotocol/sdk/types.js").Tool[];
  nextCursor: string | null;
  json: string;
}> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
  const { ListToolsResultSchema } = await import("@modelcontextprotocol/sdk/types.js");
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "bench-startup-client", version: "0.0.0" });
  await client.connect(clientTransport);
  mark("connect");
  const listed = await client.request({ method: "tools/list" }, ListToolsResultSchema);
  const json = JSON.stringify(listed.tools);
  mark("list");
  await client.close();
  return { tools: listed.tools, nextCursor: listed.nextCursor ?? null, json };
}
