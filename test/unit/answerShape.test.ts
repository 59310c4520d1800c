/**
 * The one shape guard of an answer from outside the host: the form page's messages, an
 * answer read for a form (a phone's, an app's, another window's in the broker) and the
 * window mesh's answer message take and refuse the same contents.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAnswerContent, isAnswerValue, isPlainObject } from '../../src/core/form/answerShape';
import { normalize } from '../../src/core/form/normalize';
import { readOutsideAnswer } from '../../src/core/form/outsideAnswer';
import { isFormToHost } from '../../src/core/protocols/formProtocol';
import { decode } from '../../src/core/windows/protocol';

const taken: unknown[] = [{}, { a: 'x', b: 2, c: true, d: ['x', 'y'], e: [] }, { n: -0.5 }, JSON.parse('{"__proto__": "x"}')];
const refused: unknown[] = [
  undefined,
  null,
  'text',
  42,
  [],
  ['x'],
  new Date(),
  { a: null },
  { a: { nested: 1 } },
  { a: [1, 2] },
  { a: ['x', null] },
  { a: Number.NaN },
  { a: Number.POSITIVE_INFINITY },
];

/** Whether the window mesh takes an accepted answer with this content (JSON keeps what it can of it). */
function meshTakes(content: unknown): boolean {
  const line = `{"type":"answer","requestId":1,"questionId":2,"answer":{"action":"accept","content":${JSON.stringify(content) ?? 'null'}}}`;
  try {
    decode(line);
    return true;
  } catch {
    return false;
  }
}

describe('isAnswerContent', () => {
  it('takes a plain object of text, finite numbers, yes/no and lists of text', () => {
    for (const content of taken) assert.equal(isAnswerContent(content), true, JSON.stringify(content));
  });

  it('refuses anything else', () => {
    for (const content of refused) assert.equal(isAnswerContent(content), false, String(JSON.stringify(content)));
  });

  it('is the check of the form page, of an answer read for a form, and of the window mesh', () => {
    const form = normalize({ type: 'object', properties: {} });
    for (const content of [...taken, ...refused]) {
      const expected = isAnswerContent(content);
      const shown = String(JSON.stringify(content));
      assert.equal(isFormToHost({ type: 'submit', content }), expected, `form page: ${shown}`);
      assert.equal(!('malformed' in readOutsideAnswer(form, content)), expected, `outside answer: ${shown}`);
      // JSON has no NaN, Infinity or Date: what it writes for them instead is what the mesh reads.
      const sent: unknown = JSON.parse(JSON.stringify({ content }) ?? '{}').content;
      assert.equal(meshTakes(content), isAnswerContent(sent), `window mesh: ${shown}`);
    }
  });
});

describe('isAnswerValue and isPlainObject', () => {
  it('tell values and objects apart as the answer guard does', () => {
    assert.equal(isAnswerValue(''), true);
    assert.equal(isAnswerValue(0), true);
    assert.equal(isAnswerValue(false), true);
    assert.equal(isAnswerValue([]), true);
    assert.equal(isAnswerValue(Number.NaN), false);
    assert.equal(isAnswerValue({}), false);
    assert.equal(isPlainObject(Object.create(null)), true);
    assert.equal(isPlainObject(new (class Answer {})()), false);
    assert.equal(isPlainObject([]), false);
  });
});
