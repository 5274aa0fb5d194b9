/**
 * Source text of the synthesized project's fixed files: src/types.ts (imported by every tool
 * file) and the per-file types each tool file declares for itself.
 */

/** The shared types, with property docs and constraint tags like a real domain model. */
export const SHARED_TYPES = `/** Shared domain types, imported by every tool file. */

/** Urgency of a request. */
export enum Priority {
  Low = "low",
  Normal = "normal",
  High = "high",
  Urgent = "urgent",
}

/** Verbosity of a log. */
export enum Level {
  Debug,
  Info,
  Warn,
  Error,
}

/** Data-centre region. */
export enum Region {
  EuWest = "eu-west",
  UsEast = "us-east",
  ApSouth = "ap-south",
}

/** How thoroughly to work: fast skips optional checks. */
export type Mode = "fast" | "balanced" | "thorough";

/** A point on Earth. */
export interface GeoPoint {
  /**
   * Latitude in degrees.
   * @minimum -90
   * @maximum 90
   */
  lat: number;
  /**
   * Longitude in degrees.
   * @minimum -180
   * @maximum 180
   */
  lon: number;
}

/** A postal address. */
export interface Address {
  /**
   * Street and number.
   * @minLength 1
   * @maxLength 120
   */
  street: string;
  city: string;
  /**
   * ISO 3166-1 alpha-2 country code.
   * @pattern ^[A-Z][A-Z]$
   */
  country: string;
  postalCode?: string;
  /** Where the address is, when geocoded. */
  location?: GeoPoint | null;
}

/** A person to contact. */
export interface Contact {
  /** @maxLength 80 */
  name: string;
  /**
   * Contact e-mail.
   * @format email
   */
  email: string;
  /** @maxItems 5 */
  phones: string[];
  address: Address | null;
}

/** An amount of money. */
export interface Money {
  /**
   * Amount in the currency's major unit.
   * @minimum 0
   */
  amount: number;
  /**
   * ISO 4217 currency code.
   * @pattern ^[A-Z][A-Z][A-Z]$
   */
  currency: string;
}

/** A window into a long list. */
export interface Pagination {
  /**
   * Page size.
   * @minimum 1
   * @maximum 500
   */
  limit: number;
  /** Opaque cursor from the previous page; null for the first page. */
  cursor?: string | null;
}

/** A node of the category tree. */
export interface Category {
  /** @minLength 1 */
  name: string;
  children: Category[];
}

/** Who changed a record, and when. */
export interface Audit {
  createdBy: Contact;
  createdAt: Date;
  /** Free-form labels. */
  tags: Record<string, string>;
  region: Region;
}
`;

/** The types one tool file declares for itself; `s` is its suffix, `channels` its union members. */
export function localTypes(s: string, channels: readonly string[]): string {
  return `/** Delivery channel for this module. */
export type Channel${s} = ${channels.map((c) => JSON.stringify(c)).join(" | ")};

/** One line of a ${s} order. */
export interface Item${s} {
  /**
   * Stock-keeping unit.
   * @pattern ^[A-Z0-9-]+$
   */
  sku: string;
  /**
   * Number of units.
   * @minimum 1
   * @maximum 999
   */
  quantity: number;
  price: Money;
  note?: string | null;
}

/** Which ${s} records to match. */
export interface Filter${s} {
  status?: ("open" | "closed" | "archived")[];
  priority?: Priority;
  channel: Channel${s};
  /** Inclusive numeric range. */
  range?: { from: number; to: number };
  labels: Record<string, string>;
  mode: Mode | null;
}

/** A ${s} shipment. */
export interface Shipment${s} {
  to: Address;
  items: Item${s}[];
  contact: Contact | null;
  /** Weight in kilograms per parcel id. */
  weights: Record<string, number>;
  region?: Region;
}

/** What a ${s} operation returns. */
export interface Result${s} {
  ok: boolean;
  items: Item${s}[];
  /** @minimum 0 */
  total: number;
  next: string | null;
  audit?: Audit;
}
`;
}

/** Names exported by src/types.ts, to build each tool file's import list. */
export const SHARED_NAMES = [
  "Priority",
  "Level",
  "Region",
  "Mode",
  "GeoPoint",
  "Address",
  "Contact",
  "Money",
  "Pagination",
  "Category",
  "Audit",
];
/** The shared names that are values (enums), which must not be imported with `type`. */
export const SHARED_VALUES = new Set(["Priority", "Level", "Region"]);
