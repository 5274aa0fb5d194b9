/**
 * A local fake of the GitHub REST API v3 for `acme/invoice-kit` (data.ts): the routes the
 * github script calls, over HTTP on 127.0.0.1, answering JSON as GitHub does (404 with
 * `{"message":"Not Found"}` for anything else). Comments posted are kept until `reset`, so a
 * run sees its own writes and the next run starts from the same state. Bodies are bounded.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  combinedStatus,
  comment,
  fileContent,
  issue,
  ISSUES,
  pull,
  pullFiles,
  repository,
  UTIL_TS,
} from "./data.ts";

const BODY_LIMIT = 1 << 20;
const REPO = "/repos/acme/invoice-kit";

export interface FakeGitHub {
  /** The base to use instead of `https://api.github.com`. */
  readonly url: string;
  /** Forgets what the runs wrote. */
  reset(): void;
  close(): Promise<void>;
}

type Route = (match: RegExpMatchArray, body: unknown, query: URLSearchParams) => unknown;

export async function startFakeGitHub(): Promise<FakeGitHub> {
  let added: { issue: number; body: string }[] = [];
  let api = "";
  const issueSeed = (n: string) => ISSUES.find((seed) => seed.number === Number(n));
  const routes: [string, RegExp, Route][] = [
    [
      "GET",
      /^\/search\/repositories$/,
      () => ({ total_count: 1, incomplete_results: false, items: [repository(api)] }),
    ],
    ["GET", /^\/repos\/acme\/invoice-kit$/, () => repository(api)],
    [
      "GET",
      new RegExp(`^${REPO}/issues$`),
      (_, __, query) =>
        query.get("state") === "closed"
          ? []
          : ISSUES.map((seed) => issue(api, seed, countFor(seed.number))),
    ],
    [
      "GET",
      new RegExp(`^${REPO}/issues/(\\d+)$`),
      ([, n]) => found(issueSeed(n!), (seed) => issue(api, seed, countFor(seed.number))),
    ],
    [
      "POST",
      new RegExp(`^${REPO}/issues/(\\d+)/comments$`),
      ([, n], body) =>
        found(issueSeed(n!), (seed) => {
          const text = String((body as { body?: unknown } | null)?.body ?? "");
          added.push({ issue: seed.number, body: text });
          return comment(api, 3300000 + added.length, seed.number, text);
        }),
    ],
    [
      "GET",
      new RegExp(`^${REPO}/contents/src/util\\.ts$`),
      () => fileContent(api, "src/util.ts", UTIL_TS),
    ],
    [
      "GET",
      new RegExp(`^${REPO}/pulls$`),
      (_, __, query) => (query.get("state") === "closed" ? [] : [pull(api)]),
    ],
    ["GET", new RegExp(`^${REPO}/pulls/43$`), () => pull(api)],
    ["GET", new RegExp(`^${REPO}/pulls/43/files$`), () => pullFiles(api)],
    ["GET", new RegExp(`^${REPO}/commits/[0-9a-f]{40}/status$`), () => combinedStatus(api)],
  ];
  const countFor = (n: number) => added.filter((entry) => entry.issue === n).length;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) request.destroy();
      else chunks.push(chunk);
    });
    request.on("end", () => {
      const url = new URL(request.url ?? "/", api);
      let body: unknown = null;
      try {
        body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : null;
      } catch {
        return send(response, 400, { message: "Problems parsing JSON" });
      }
      for (const [method, pattern, route] of routes) {
        const match = url.pathname.match(pattern);
        if (match && request.method === method) {
          const answer = route(match, body, url.searchParams);
          return answer === NOT_FOUND
            ? send(response, 404, NOT_FOUND_BODY)
            : send(response, method === "POST" ? 201 : 200, answer);
        }
      }
      send(response, 404, NOT_FOUND_BODY);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: api,
    reset: () => {
      added = [];
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const NOT_FOUND = Symbol("not found");
const NOT_FOUND_BODY = {
  message: "Not Found",
  documentation_url: "https://docs.github.com/rest",
  status: "404",
};

const found = <T>(seed: T | undefined, answer: (seed: T) => unknown) =>
  seed === undefined ? NOT_FOUND : answer(seed);

function send(response: http.ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  response.end(JSON.stringify(value));
}
