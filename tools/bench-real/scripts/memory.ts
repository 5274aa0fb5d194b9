/**
 * The memory server's task: build a small knowledge graph of a team, then query and correct it.
 * Writes answer with what they stored (the agent does not need that echo); reads are needed whole.
 */
import type { Script } from "../script.ts";

const entities = [
  {
    name: "Ada Okafor",
    entityType: "person",
    observations: ["Leads the payments team", "Based in Lisbon", "Prefers async updates"],
  },
  {
    name: "Payments team",
    entityType: "team",
    observations: ["Owns the checkout service", "Ships on Tuesdays"],
  },
  {
    name: "Checkout service",
    entityType: "service",
    observations: ["Written in Go", "Deployed in eu-west-1", "Error budget 99.9%"],
  },
  {
    name: "Luis Moreau",
    entityType: "person",
    observations: ["On-call for checkout this week", "Based in Lisbon"],
  },
];

export const memoryScript: Script = {
  server: "memory",
  task: "Record what I tell you about the payments team in memory, then tell me who in Lisbon works on checkout.",
  steps: [
    { tool: "create_entities", args: { entities } },
    {
      tool: "create_relations",
      args: {
        relations: [
          { from: "Ada Okafor", to: "Payments team", relationType: "leads" },
          { from: "Payments team", to: "Checkout service", relationType: "owns" },
          { from: "Luis Moreau", to: "Checkout service", relationType: "is on call for" },
        ],
      },
    },
    {
      tool: "add_observations",
      args: {
        observations: [
          { entityName: "Luis Moreau", contents: ["Joined in March", "Based in Lisbon"] },
        ],
      },
    },
    { tool: "search_nodes", args: { query: "Lisbon" }, needs: "all" },
    { tool: "open_nodes", args: { names: ["Checkout service"] }, needs: "all" },
    {
      tool: "delete_observations",
      args: { deletions: [{ entityName: "Ada Okafor", observations: ["Prefers async updates"] }] },
    },
    { tool: "read_graph", args: {}, needs: "all" },
  ],
};
