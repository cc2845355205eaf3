// A node:test reporter that adds up each test file's top-level durations and
// counts the tests that passed and failed, as one JSON line for test.mjs's
// closing table (the slowest files) and its one closing count.
export default async function* fileTimes(source) {
  const seconds = {};
  let passed = 0;
  let failed = 0;
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    if (data.details?.type !== 'suite') {
      if (event.type === 'test:pass' && !data.skip && !data.todo) passed++;
      if (event.type === 'test:fail') failed++;
    }
    if (data.nesting === 0 && data.file) seconds[data.file] = (seconds[data.file] ?? 0) + (data.details?.duration_ms ?? 0) / 1000;
  }
  yield `${JSON.stringify({ seconds, passed, failed })}\n`;
}
