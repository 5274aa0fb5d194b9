/** Namespaces and modules: namespaces in modules, nested, imported and re-exported types, global scripts, merging. */
import type { Case } from "./case.js";

const MONEY = "export interface Money { amount: number; currency: string }\n";

export const namespaces: Case[] = [
  {
    id: "local_namespace",
    decls: "namespace Geo {\n  export interface Point { lat: number; lng: number }\n}",
    type: "Geo.Point",
    accept: [{ lat: 1, lng: 2 }],
    reject: [{ lat: 1 }],
  },
  {
    id: "nested_namespace",
    decls: 'namespace A.B {\n  export type Mode = "x" | "y";\n}',
    type: "A.B.Mode",
    accept: ["x", "y"],
    reject: ["z"],
  },
  {
    id: "namespace_enum",
    decls: 'namespace N {\n  export enum E { One = "one", Two = "two" }\n}',
    type: "N.E",
    accept: [{ wire: "one", ts: "N.E.One" }],
    reject: ["three"],
  },
  {
    id: "imported_type",
    decls: 'import type { Money } from "../shared/money.js";',
    type: "Money",
    files: { "shared/money.ts": MONEY },
    accept: [{ amount: 1, currency: "EUR" }],
    reject: [{ amount: 1 }],
  },
  {
    id: "namespace_import",
    decls: 'import type * as shared from "../shared/money.js";',
    type: "shared.Money",
    files: { "shared/money.ts": MONEY },
    accept: [{ amount: 1, currency: "EUR" }],
    reject: [{ amount: "1", currency: "EUR" }],
  },
  {
    id: "reexported_type",
    decls: 'import type { Money } from "../shared/index.js";',
    type: "Money[]",
    files: {
      "shared/money.ts": MONEY,
      "shared/index.ts": 'export type { Money } from "./money.js";\n',
    },
    accept: [[{ amount: 1, currency: "EUR" }]],
    reject: [[{}]],
  },
  {
    id: "renamed_import",
    decls: 'import type { Money as Cash } from "../shared/money.js";',
    type: "{ cash: Cash }",
    files: { "shared/money.ts": MONEY },
    accept: [{ cash: { amount: 1, currency: "EUR" } }],
    reject: [{ cash: {} }],
  },
  {
    id: "global_namespace",
    decision: "B7",
    type: "GlobalGeo.Point",
    files: {
      "globals/geo.ts":
        "declare namespace GlobalGeo {\n  interface Point { lat: number; lng: number }\n}\n",
    },
    accept: [{ lat: 1, lng: 2 }],
    reject: [{ lat: 1 }],
  },
  {
    id: "global_interface",
    decision: "B7",
    type: "GlobalPoint",
    files: { "globals/point.ts": "interface GlobalPoint { x: number; y: number }\n" },
    accept: [{ x: 1, y: 2 }],
    reject: [{ x: 1 }],
  },
  {
    id: "global_alias",
    decision: "B7",
    type: "GlobalUnit",
    files: { "globals/unit.ts": 'declare type GlobalUnit = "m" | "km";\n' },
    accept: ["m", "km"],
    reject: ["cm"],
  },
  {
    id: "merged_interface",
    decls: "interface Opts { a: number }\ninterface Opts { b: string }",
    type: "Opts",
    accept: [{ a: 1, b: "x" }],
    reject: [{ a: 1 }],
  },
  {
    id: "default_export_type",
    decls: 'import type Settings from "../shared/settings.js";',
    type: "Settings",
    files: { "shared/settings.ts": "export default interface Settings { dark: boolean }\n" },
    accept: [{ dark: true }],
    reject: [{ dark: "yes" }],
  },
];
