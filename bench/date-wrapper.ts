// What Next.js's server-side Date wrapper costs (next/dist/server/node-environment-extensions/date.js, installed by
// app.prepare(); the app server puts the platform's Date back, lib/server/platform-date.ts): `new Date(ms)` and
// `Date.now()` with the platform's Date (the baseline) and through the wrapper, alternated, ns a call.
// Usage: npx tsx bench/date-wrapper.ts [calls=2000000] [rounds=3]
import { createRequire } from "node:module";
import { restorePlatformDate } from "@/lib/server/platform-date";
import { fmt } from "./lib";

const calls = Number(process.argv[2] ?? 2_000_000);
const rounds = Number(process.argv[3] ?? 3);
const platform = globalThis.Date;
createRequire(import.meta.url)("next/dist/server/node-environment-extensions/date.js");
const wrapped = globalThis.Date;
if (wrapped === platform) throw new Error("Next.js did not wrap Date: nothing to measure");

/** ns a call of `new Date(ms)` and of `Date.now()` with `D` as the global Date. */
function time(D: DateConstructor): [number, number] {
  globalThis.Date = D;
  let sink = 0;
  let t = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sink += new Date(1_764_403_200_000 + i).getTime() & 1;
  const construct = Number(process.hrtime.bigint() - t) / calls;
  t = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sink += Date.now() & 1;
  const now = Number(process.hrtime.bigint() - t) / calls;
  if (sink < 0) console.log(sink);
  return [construct, now];
}

const runs = { platform: [] as Array<[number, number]>, wrapped: [] as Array<[number, number]> };
for (let r = 0; r < rounds; r++) {
  runs.platform.push(time(platform));
  runs.wrapped.push(time(wrapped));
}
restorePlatformDate(platform);
const show = (xs: Array<[number, number]>, k: 0 | 1) => xs.map((x) => fmt(x[k], 1)).join(" / ");
console.log(`${fmt(calls)} calls a run, ${rounds} runs alternated (ns a call):`);
console.log(`  new Date(ms): the platform's ${show(runs.platform, 0)}, Next.js's wrapper ${show(runs.wrapped, 0)}`);
console.log(`  Date.now():   the platform's ${show(runs.platform, 1)}, Next.js's wrapper ${show(runs.wrapped, 1)}`);
