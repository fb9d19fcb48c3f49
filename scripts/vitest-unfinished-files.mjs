// A Vitest reporter for `npm test` (scripts/test.mjs): names each test file whose process died
// before the file finished. Vitest then says only "Worker exited unexpectedly", with no file and
// no stack, and the file's tests so far count as passed; this line is the one clue to which file
// it was (a native crash, V8 out of memory in the process or one of its threads).
export default class UnfinishedFiles {
  onTestRunEnd(testModules) {
    for (const testModule of testModules) {
      const state = testModule.state();
      if (state === 'pending' || state === 'queued') {
        process.stderr.write(`Test file never finished (its process died): ${testModule.moduleId}\n`);
      }
    }
  }
}
