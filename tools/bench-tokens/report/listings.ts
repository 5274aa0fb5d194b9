/**
 * What each surface sends to tell the model its tools, and what documentation it carries: each
 * surface opened once over the workbench (both catalogs) and the weather registry.
 */
import type { GeneratedModule } from "@zcp/runtime";
import { firstSentence } from "@zcp/runtime/definition";
import { weather as weatherRegistry, workbench as WORKBENCH } from "../plans/registries.ts";
import { bareCompactInstructions } from "../surfaces/native.ts";
import { openSurface } from "../surfaces/open.ts";
import { CATALOGS, PROTOCOLS, type Catalog, type Protocol } from "../surfaces/spec.ts";
import { tokensOf } from "../surfaces/transcript.ts";

export interface Listing {
  readonly tools: number;
  readonly tokens: number;
  readonly toolDescriptions: "full" | "first sentence" | "none";
  readonly parameterDescriptions: boolean;
}

/** Whether `text` holds `needle` as written or JSON-escaped (inside a JSON string). */
const holds = (text: string, needle: string) =>
  needle !== "" && (text.includes(needle) || text.includes(JSON.stringify(needle).slice(1, -1)));

/** Opens the surface once to see what it lists and which documentation its listing carries (found by searching the listing for the registry's own text). */
async function listingOf(
  registry: GeneratedModule,
  protocol: Protocol,
  catalog: Catalog,
): Promise<Listing> {
  const surface = await openSurface({ protocol, catalog }, registry);
  try {
    const text = surface.tools.length > 0 ? JSON.stringify(surface.tools) : surface.instructions;
    const tools = registry.registry.tools.filter(
      (tool) => surface.listed.has(tool.alias) && tool.description.includes(". "),
    );
    const share = (found: (tool: (typeof tools)[number]) => boolean) =>
      tools.filter(found).length / Math.max(1, tools.length);
    const full = share((tool) => holds(text, tool.description));
    const first = share((tool) => holds(text, firstSentence(tool.description)));
    const params = registry.registry.tools
      .filter((tool) => surface.listed.has(tool.alias))
      .flatMap((tool) =>
        Object.values(
          (tool.inputSchema as { properties?: Record<string, { description?: string }> })
            .properties ?? {},
        ).map((property) => property.description ?? ""),
      )
      .filter((description) => description.length > 12);
    return {
      tools: surface.listed.size,
      tokens: surface.tools.length > 0 ? tokensOf(surface.tools) : tokensOf(surface.instructions),
      toolDescriptions: full > 0.5 ? "full" : first > 0.5 ? "first sentence" : "none",
      parameterDescriptions:
        params.filter(
          (description) => holds(text, description) || holds(text, firstSentence(description)),
        ).length >
        params.length / 2,
    };
  } finally {
    await surface.close();
  }
}

export interface Listings {
  readonly listings: Record<Catalog, Record<Protocol, Listing>>;
  readonly weatherListing: Record<Protocol, Listing>;
  /** zcp-compact's instructions without the planner lines' documentation (`docs: false`). */
  readonly bare: string;
}

/** Every surface's listing of the workbench (both catalogs) and of the weather registry. */
export async function measureListings(): Promise<Listings> {
  const listings = Object.fromEntries(
    await Promise.all(
      CATALOGS.map(
        async (catalog) =>
          [
            catalog,
            Object.fromEntries(
              await Promise.all(
                PROTOCOLS.map(async (p) => [p, await listingOf(WORKBENCH, p, catalog)]),
              ),
            ),
          ] as const,
      ),
    ),
  ) as Record<Catalog, Record<Protocol, Listing>>;
  const weatherListing = Object.fromEntries(
    await Promise.all(PROTOCOLS.map(async (p) => [p, await listingOf(weatherRegistry, p, "all")])),
  ) as Record<Protocol, Listing>;
  const bare = await bareCompactInstructions(WORKBENCH, "all");
  return { listings, weatherListing, bare };
}

const TOOL_DOCS: Record<Listing["toolDescriptions"], string> = {
  full: "the tools' full descriptions",
  "first sentence": "the first sentence of each tool's description",
  none: "no tool descriptions",
};
export const documented = (listing: Listing) =>
  `${TOOL_DOCS[listing.toolDescriptions]} and ${listing.parameterDescriptions ? "the parameters' descriptions" : "no parameter descriptions"}`;
