/**
 * Preloaded into @modelcontextprotocol/server-github (`node --import <this> dist/index.js`): the
 * original calls Node's global `fetch` with `https://api.github.com/...` written into its code,
 * and has no setting for another base. This sends those requests to `GITHUB_API_URL` (the
 * bench's local fake of the API) instead; nothing else of the original changes.
 */
const ORIGIN = "https://api.github.com";
const base = process.env.GITHUB_API_URL;
if (base) {
  const fetch = globalThis.fetch;
  globalThis.fetch = (input, init) =>
    fetch(
      typeof input === "string" && input.startsWith(ORIGIN)
        ? base + input.slice(ORIGIN.length)
        : input,
      init,
    );
}
