/**
 * pipeline/ is the one home of a run, for both faces (cli/ and action/). In
 * the order it happens:
 *
 *   preflight.ts  is this machine fit to measure on?
 *   inputs.ts     read perf-gate.yml, the budgets, given results, and the
 *                 baseline (named files, else the store's choice by commit
 *                 and testbed)
 *   measure.ts    run the suites (or A/B rounds), throttle check, derived metrics
 *   gate.ts       decide, once
 *   publish.ts    write the reports and render every text a face shows
 *   record.ts     on main: store the run as a future baseline
 *
 * with history.ts (`perf-gate history`: open, record, find runs), exit.ts
 * (the exit statuses), command.ts (the shape of a subcommand),
 * run-deps.ts (processes and the machine, injectable) and output-parser.ts
 * (a suite's output → benchmarks). The CLI's tools around a run (convert.ts,
 * merge-shards.ts, time-commands.ts, count-commands.ts) reach the layers below through here too,
 * so cli/ and action/ import only pipeline/ (action/ also github/), and
 * model/ for types. pipeline/ never parses flags or inputs, and never
 * decides a verdict itself: gate/ does.
 */
export * from './exit.js';
export * from './command.js';
export * from './run-deps.js';
export * from './preflight.js';
export * from './inputs.js';
export * from './history.js';
export * from './output-parser.js';
export * from './measure.js';
export * from './gate.js';
export * from './publish.js';
export * from './record.js';
export * from './convert.js';
export * from './merge-shards.js';
export * from './time-commands.js';
export * from './count-commands.js';
