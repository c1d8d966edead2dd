// Ends the run with one plain line, "tests: N passed, N failed[, N skipped]", that any CI can read.
// Written as the process exits, after Jest's own summary, so it stays the closing line.
const { writeSync } = require('node:fs');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `tests: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`;
    process.once('exit', () => writeSync(1, line));
  }
}
module.exports = SummaryReporter;
