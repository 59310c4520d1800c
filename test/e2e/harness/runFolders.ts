/**
 * Where end-to-end runs leave what they make, inside the repository but ignored
 * by git (`.gitignore`: `test/e2e/.runs/`), so a test run never dirties
 * `git status`. The README's pictures are copied from here on purpose, with
 * `npm run screenshots` (publishScreenshots.ts).
 */
import * as path from 'node:path';

export const runsDir = path.resolve(__dirname, '..', '.runs');
/** Every screenshot a test takes; the leak scan searches it too. */
export const screenshotDir = path.join(runsDir, 'screenshots');
/** What the page showed when a harness step gave up. */
export const failureShotDir = path.join(screenshotDir, 'failures');
