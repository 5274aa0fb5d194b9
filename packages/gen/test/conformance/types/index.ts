/** Every category of the conformance suite, in the order of the report. */
import { arrays } from "./arrays.js";
import { builtins } from "./builtins.js";
import type { Category } from "./case.js";
import { conditional } from "./conditional.js";
import { enums } from "./enums.js";
import { generics } from "./generics.js";
import { intersections } from "./intersections.js";
import { jsdoc } from "./jsdoc.js";
import { jsdocConstraints } from "./jsdoc-constraints.js";
import { literals } from "./literals.js";
import { mapped } from "./mapped.js";
import { namespaces } from "./namespaces.js";
import { nullable } from "./nullable.js";
import { objects } from "./objects.js";
import { operators } from "./operators.js";
import { options } from "./options.js";
import { optional } from "./optional.js";
import { primitives } from "./primitives.js";
import { records } from "./records.js";
import { recursion } from "./recursion.js";
import { tuples } from "./tuples.js";
import { unions } from "./unions.js";
import { utility } from "./utility.js";

export const CATEGORIES: Category[] = [
  { name: "primitives", cases: primitives },
  { name: "literals", cases: literals },
  { name: "enums", cases: enums },
  { name: "arrays", cases: arrays },
  { name: "tuples", cases: tuples },
  { name: "objects", cases: objects },
  { name: "optional", cases: optional },
  { name: "nullable", cases: nullable },
  { name: "records", cases: records },
  { name: "unions", cases: unions },
  { name: "intersections", cases: intersections },
  { name: "utility", cases: utility },
  { name: "mapped", cases: mapped },
  { name: "conditional", cases: conditional },
  { name: "operators", cases: operators },
  { name: "generics", cases: generics },
  { name: "recursion", cases: recursion },
  { name: "namespaces", cases: namespaces },
  { name: "builtins", cases: builtins },
  { name: "jsdoc", cases: [...jsdoc, ...jsdocConstraints] },
  { name: "options", cases: options },
];
