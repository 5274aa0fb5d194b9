/**
 * The building blocks the synthesizer draws from: field kinds (a parameter or an interface
 * property), return types and the words descriptions are made of. Every kind is something
 * zcp gen must accept without an error, so the benchmark times successful runs only.
 *
 * In `type`, `$` stands for the file suffix (e.g. `Item07`): per-file types are declared in
 * each tool file, shared ones in src/types.ts.
 */

export interface FieldKind {
  readonly name: string;
  readonly type: string;
  readonly doc: string;
  /** Constraint tags valid for `type` (zcp rejects e.g. @minimum on a string). */
  readonly tags?: readonly string[];
  /** A literal default, usable for positional and destructured parameters. */
  readonly literal?: string;
}

export const FIELD_KINDS: readonly FieldKind[] = [
  {
    name: "query",
    type: "string",
    doc: "Free-text search query.",
    tags: ["@minLength 1", "@maxLength 200"],
    literal: '"*"',
  },
  {
    name: "limit",
    type: "number",
    doc: "Maximum number of results.",
    tags: ["@minimum 1", "@maximum 100"],
    literal: "10",
  },
  {
    name: "offset",
    type: "number",
    doc: "Number of results to skip.",
    tags: ["@minimum 0"],
    literal: "0",
  },
  {
    name: "email",
    type: "string",
    doc: "Address to send the confirmation to.",
    tags: ["@format email"],
  },
  {
    name: "slug",
    type: "string",
    doc: "URL-safe identifier.",
    tags: ["@pattern ^[a-z0-9-]+$", "@maxLength 64"],
  },
  {
    name: "dryRun",
    type: "boolean",
    doc: "Report what would change without changing it.",
    literal: "false",
  },
  {
    name: "priority",
    type: "Priority",
    doc: "Urgency of the request.",
    literal: "Priority.Normal",
  },
  { name: "level", type: "Level", doc: "Verbosity of the returned log.", literal: "Level.Info" },
  { name: "mode", type: "Mode", doc: "How thoroughly to work.", literal: '"balanced"' },
  { name: "channel", type: "Channel$", doc: "Where to deliver the result." },
  {
    name: "status",
    type: '"open" | "closed" | "archived"',
    doc: "Lifecycle state to match.",
    literal: '"open"',
  },
  { name: "address", type: "Address", doc: "Postal address to use." },
  {
    name: "contact",
    type: "Contact | null",
    doc: "Person to contact, or null for none.",
    literal: "null",
  },
  {
    name: "items",
    type: "Item$[]",
    doc: "Lines to process.",
    tags: ["@minItems 1", "@maxItems 50"],
  },
  {
    name: "tags",
    type: "string[]",
    doc: "Labels to attach.",
    tags: ["@maxItems 10", "@uniqueItems"],
  },
  { name: "labels", type: "Record<string, string>", doc: "Free-form key/value labels." },
  { name: "weights", type: "Record<string, number>", doc: "Relative weight per key." },
  { name: "places", type: "Record<string, GeoPoint>", doc: "Named locations." },
  { name: "filter", type: "Filter$", doc: "Which records to match." },
  { name: "page", type: "Pagination", doc: "Paging window." },
  { name: "since", type: "Date", doc: "Only records changed after this instant." },
  { name: "category", type: "Category", doc: "Category tree to file the record under." },
  { name: "budget", type: "Money | null", doc: "Spending cap, or null for none.", literal: "null" },
  {
    name: "note",
    type: "string | null",
    doc: "Comment for the audit log.",
    tags: ["@maxLength 500"],
    literal: "null",
  },
  {
    name: "ratio",
    type: "number",
    doc: "Sampling ratio.",
    tags: ["@minimum 0", "@maximum 1"],
    literal: "0.5",
  },
  { name: "ids", type: "number[]", doc: "Record identifiers.", tags: ["@minItems 1"] },
  { name: "shipment", type: "Shipment$", doc: "Shipment to act on." },
  { name: "audit", type: "Audit", doc: "Who asked for the change." },
  {
    name: "locale",
    type: "string",
    doc: "Two-letter language code.",
    tags: ["@pattern ^[a-z][a-z]$"],
    literal: '"en"',
  },
  { name: "retry", type: "{ attempts: number; backoffMs: number }", doc: "Retry policy." },
  { name: "region", type: "Region", doc: "Region to run in.", literal: "Region.EuWest" },
  {
    name: "window",
    type: "[number, number] | null",
    doc: "Start and end hour, or null for all day.",
    literal: "null",
  },
];

/** Return types, with the `@output` mode that fits them (null: leave the default, auto). */
export const RETURN_KINDS: readonly {
  readonly type: string;
  readonly output: "scalar" | "handle" | null;
}[] = [
  { type: "Promise<Result$>", output: "handle" },
  { type: "Promise<Result$>", output: null },
  { type: "Promise<Shipment$>", output: "handle" },
  { type: "Item$[]", output: null },
  { type: "number", output: "scalar" },
  { type: "string", output: "scalar" },
  { type: "boolean", output: "scalar" },
  { type: "Promise<void>", output: "scalar" },
  { type: "Promise<Record<string, number>>", output: "scalar" },
  { type: "Contact | null", output: null },
];

/** Verbs, the sentence that describes them, and the flags they imply. */
export const VERBS: readonly {
  readonly verb: string;
  readonly phrase: string;
  readonly flags: readonly string[];
}[] = [
  {
    verb: "get",
    phrase: "Fetches one {noun} by its identifier",
    flags: ["readonly", "idempotent"],
  },
  {
    verb: "list",
    phrase: "Lists the {nouns} that match the given criteria",
    flags: ["readonly", "idempotent"],
  },
  {
    verb: "search",
    phrase: "Searches {nouns} by free text and structured filters",
    flags: ["readonly"],
  },
  { verb: "create", phrase: "Creates a new {noun}", flags: [] },
  { verb: "update", phrase: "Updates an existing {noun} in place", flags: ["idempotent"] },
  { verb: "delete", phrase: "Deletes a {noun} permanently", flags: ["destructive", "approval"] },
  {
    verb: "compute",
    phrase: "Computes summary statistics over {nouns}",
    flags: ["readonly", "idempotent"],
  },
  { verb: "validate", phrase: "Checks a {noun} against the business rules", flags: ["readonly"] },
  { verb: "archive", phrase: "Archives {nouns} older than the cutoff", flags: ["destructive"] },
  { verb: "export", phrase: "Exports {nouns} to the reporting warehouse", flags: ["readonly"] },
  { verb: "notify", phrase: "Sends a notification about a {noun}", flags: [] },
  { verb: "schedule", phrase: "Schedules follow-up work on a {noun}", flags: ["approval"] },
  {
    verb: "merge",
    phrase: "Merges duplicate {nouns} into one",
    flags: ["destructive", "approval"],
  },
  { verb: "sync", phrase: "Synchronizes {nouns} with the upstream system", flags: ["idempotent"] },
];

export const NOUNS: readonly { readonly noun: string; readonly nouns: string }[] = [
  { noun: "order", nouns: "orders" },
  { noun: "invoice", nouns: "invoices" },
  { noun: "shipment", nouns: "shipments" },
  { noun: "customer", nouns: "customers" },
  { noun: "ticket", nouns: "tickets" },
  { noun: "route", nouns: "routes" },
  { noun: "forecast", nouns: "forecasts" },
  { noun: "report", nouns: "reports" },
  { noun: "batch", nouns: "batches" },
  { noun: "payment", nouns: "payments" },
  { noun: "product", nouns: "products" },
  { noun: "warehouse", nouns: "warehouses" },
  { noun: "account", nouns: "accounts" },
  { noun: "campaign", nouns: "campaigns" },
  { noun: "device", nouns: "devices" },
  { noun: "contract", nouns: "contracts" },
];

export const SECOND_SENTENCES: readonly string[] = [
  "Results are ordered by creation time, newest first.",
  "Call it before planning a batch operation.",
  "Fails when the caller lacks access to the record.",
  "Every call is written to the audit log.",
  "Amounts are in the account's billing currency.",
  "Times are interpreted in UTC.",
  "Unknown keys in the labels are ignored.",
  "The result can be passed to the export tools.",
];

export const DETAIL_PARAGRAPHS: readonly string[] = [
  "This tool is rate limited to ten calls per second per account. When the limit is reached it waits instead of failing.",
  "Records that are locked by another operation are skipped and reported in the result, so the call can be repeated safely.",
  "The lookup uses the read replica, which may lag the primary by a few seconds.",
];

export const GROUPS = [
  "orders",
  "billing",
  "logistics",
  "support",
  "analytics",
  "inventory",
  "admin",
  "geo",
  "crm",
  "iot",
];
export const STAGES = ["discover", "plan", "operate", "review"];
export const CHANNEL_WORDS = ["email", "sms", "push", "webhook", "slack", "fax", "voice", "pager"];
