/**
 * The reference's four weather cases (zcp-reference.md §8.1) over fixtures/weather, with our
 * fixture's data: Beijing 18 °C / 35 %, Shanghai 22 °C / 71 %, Hangzhou 21 °C / 66 %,
 * Shenzhen 28 °C / 84 %. Each plan is the shortest correct one: the weather calls in parallel,
 * then the arithmetic, then the answer; the expected answers are constants, not computed from
 * the run, so a wrong call fails the verifier.
 */
import type { JsonValue } from "@zcp/runtime";
import { weather as registry } from "./registries.ts";
import type { BenchCase, Plan, Results } from "./case.ts";

type Weather = { readonly temperature: number; readonly humidity: number };
const w = (value: JsonValue): Weather => value as unknown as Weather;
const near = (a: unknown, b: number) => typeof a === "number" && Math.abs(a - b) <= 0.15;
/** The values of turn `n` (0-based). */
const turn = (results: Results, n: number): readonly JsonValue[] => results[n] ?? [];
/** The one plan: weather calls in parallel, then the arithmetic. */
const primitive = (plan: Omit<Plan, "name">): Plan[] => [{ name: "primitive", ...plan }];
const get = (city: string) => ({ alias: "weather.get_current", args: { city } });

export const WEATHER_CASES: readonly BenchCase[] = [
  {
    id: "warmer_city_delta",
    tier: "weather",
    registry,
    prompt:
      'Which is warmer right now, Hangzhou or Beijing, and by how many degrees Celsius? Answer as {"warmer_city": ..., "delta_c": ...}.',
    plans: primitive({
      turns: [
        () => [get("Hangzhou"), get("Beijing")],
        (results) => {
          const [hangzhou, beijing] = turn(results, 0);
          return [
            {
              alias: "math.subtract",
              args: { a: w(hangzhou!).temperature, b: w(beijing!).temperature },
            },
          ];
        },
      ],
      answer: (results) => {
        const [hangzhou, beijing] = turn(results, 0);
        return {
          warmer_city: w(hangzhou!).temperature > w(beijing!).temperature ? "Hangzhou" : "Beijing",
          delta_c: Math.abs(turn(results, 1)[0] as number),
        };
      },
    }),
    verify: (answer) => answer.warmer_city === "Hangzhou" && near(answer.delta_c, 3),
  },
  {
    id: "shanghai_temp_f_and_humidity",
    tier: "weather",
    registry,
    prompt:
      'What is the temperature in Shanghai in Fahrenheit, and its humidity? Answer as {"city": ..., "temp_f": ..., "humidity": ...}.',
    plans: primitive({
      turns: [
        () => [get("Shanghai")],
        (results) => [
          {
            alias: "unit.celsius_to_fahrenheit",
            args: { celsius: w(turn(results, 0)[0]!).temperature },
          },
        ],
      ],
      answer: (results) => ({
        city: "Shanghai",
        temp_f: turn(results, 1)[0] as number,
        humidity: w(turn(results, 0)[0]!).humidity,
      }),
    }),
    verify: (answer) =>
      answer.city === "Shanghai" && near(answer.temp_f, 71.6) && answer.humidity === 71,
  },
  {
    id: "average_three_city_temperature",
    tier: "weather",
    registry,
    prompt:
      'What is the average temperature in Celsius of Beijing, Shanghai and Shenzhen, to one decimal? Answer as {"avg_temp_c": ..., "cities": [...]}.',
    plans: primitive({
      turns: [
        () => [get("Beijing"), get("Shanghai"), get("Shenzhen")],
        (results) => [
          {
            alias: "math.average",
            args: { numbers: turn(results, 0).map((city) => w(city).temperature) },
          },
        ],
      ],
      answer: (results) => ({
        avg_temp_c: Math.round((turn(results, 1)[0] as number) * 10) / 10,
        cities: ["Beijing", "Shanghai", "Shenzhen"],
      }),
    }),
    verify: (answer) =>
      near(answer.avg_temp_c, 22.7) &&
      JSON.stringify(answer.cities) === '["Beijing","Shanghai","Shenzhen"]',
  },
  {
    id: "more_humid_city_delta",
    tier: "weather",
    registry,
    prompt:
      'Which is more humid right now, Shenzhen or Hangzhou, and by how many percentage points? Answer as {"more_humid_city": ..., "humidity_delta": ...}.',
    plans: primitive({
      turns: [
        () => [get("Shenzhen"), get("Hangzhou")],
        (results) => {
          const [shenzhen, hangzhou] = turn(results, 0);
          return [
            {
              alias: "math.subtract",
              args: { a: w(shenzhen!).humidity, b: w(hangzhou!).humidity },
            },
          ];
        },
      ],
      answer: (results) => {
        const [shenzhen, hangzhou] = turn(results, 0);
        return {
          more_humid_city: w(shenzhen!).humidity > w(hangzhou!).humidity ? "Shenzhen" : "Hangzhou",
          humidity_delta: Math.abs(turn(results, 1)[0] as number),
        };
      },
    }),
    verify: (answer) => answer.more_humid_city === "Shenzhen" && near(answer.humidity_delta, 18),
  },
];
