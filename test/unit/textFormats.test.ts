import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fullFormats } from 'ajv-formats/dist/formats';
import type { TextFormat } from '../../src/core/form/fields';
import { matchesTextFormat } from '../../src/core/form/textFormats';

/** ajv-formats' verdict: the host's authoritative check on submit. */
function ajvAccepts(format: TextFormat, value: string): boolean {
  const rule = fullFormats[format];
  if (rule instanceof RegExp) return rule.test(value);
  if (typeof rule === 'function') return rule(value);
  if (typeof rule === 'object' && 'validate' in rule) {
    const validate = rule.validate;
    return validate instanceof RegExp ? validate.test(value) : (validate as (s: string) => boolean)(value);
  }
  throw new Error(`no ajv-formats rule for ${format}`);
}

const samples: Record<TextFormat, { valid: string[]; invalid: string[] }> = {
  email: {
    valid: ['a@b.co', 'first.last+tag@sub.example.org', "o'brien@example.ie", 'x_y-z@a-b.example', 'UPPER@EXAMPLE.COM'],
    invalid: ['a@b', '@example.com', 'a b@example.com', 'ada@', 'ada', 'ada@@example.com', 'ada@exa mple.com', 'ada@.com', ''],
  },
  uri: {
    valid: [
      'https://example.com',
      'mailto:ada@example.com',
      'urn:isbn:0451450523',
      'http://[::1]:8080/x?y=1#z',
      'file:///tmp/a%20b',
      'ftp://user@host/',
      'git+ssh://git@github.com/a/b.git',
      'data:text/plain,hi',
    ],
    invalid: ['example.com', '/relative/path', 'http://exa mple.com', '1http://x', '://x', 'https ://x', ' https://x', ''],
  },
  date: {
    valid: ['2024-02-29', '2000-02-29', '2026-12-31', '0001-01-01', '2026-04-30'],
    invalid: [
      '2026-02-29',
      '1900-02-29',
      '2026-13-01',
      '2026-1-31',
      '2026-04-31',
      '2026-00-10',
      '2026-01-00',
      '31/01/2026',
      '2026-01-31T00:00:00Z',
      '',
    ],
  },
  'date-time': {
    valid: [
      '2026-01-31T09:30:00+01:00',
      '2026-01-31T09:30:00.123Z',
      '2026-01-31t09:30:00z',
      '2026-01-31 09:30:00Z',
      '2026-01-31T09:30:00-0530',
      '2016-12-31T23:59:60Z',
    ],
    invalid: [
      '2026-01-31T09:30:00',
      '2026-01-31',
      '2026-01-31T25:00:00Z',
      '2026-01-31T09:60:00Z',
      '2026-02-30T09:30:00Z',
      '2026-01-31T09:30Z',
      '2026-01-31T09:30:00+24:00',
      '2026-01-31TT09:30:00Z',
      '',
    ],
  },
};

/** Small deterministic edits of the samples: the neighbourhood where two checkers could disagree. */
function* neighbours(value: string): Generator<string> {
  const alphabet = ['', ' ', '.', ':', '/', '@', '-', '+', 'T', 'z', '0', '9', '6', 'a', '%', '#', '?', '[', 'é'];
  for (let i = 0; i <= value.length; i++) {
    for (const c of alphabet) {
      yield value.slice(0, i) + c + value.slice(i + 1); // replace (or delete, with '')
      if (c) yield value.slice(0, i) + c + value.slice(i); // insert
    }
  }
}

describe('text formats', () => {
  for (const [format, { valid, invalid }] of Object.entries(samples) as Array<[TextFormat, (typeof samples)[TextFormat]]>) {
    it(`${format}: accepts the valid samples and refuses the invalid ones, as ajv-formats does`, () => {
      for (const value of valid) {
        assert.equal(ajvAccepts(format, value), true, `ajv-formats should accept ${JSON.stringify(value)}`);
        assert.equal(matchesTextFormat(format, value), true, `should accept ${JSON.stringify(value)}`);
      }
      for (const value of invalid) {
        assert.equal(ajvAccepts(format, value), false, `ajv-formats should refuse ${JSON.stringify(value)}`);
        assert.equal(matchesTextFormat(format, value), false, `should refuse ${JSON.stringify(value)}`);
      }
    });

    it(`${format}: never refuses what ajv-formats accepts (thousands of near misses)`, () => {
      let compared = 0;
      let bothRefuse = 0;
      for (const sample of [...valid, ...invalid]) {
        for (const value of neighbours(sample)) {
          compared++;
          const ours = matchesTextFormat(format, value);
          if (ajvAccepts(format, value)) assert.equal(ours, true, `refuses ${JSON.stringify(value)}, which ajv-formats accepts`);
          else if (!ours) bothRefuse++;
        }
      }
      assert.ok(compared > 1000, `compared ${compared}`);
      // Looser, not useless: most of what ajv-formats refuses is refused while typing too.
      assert.ok(bothRefuse > 0, 'refuses nothing');
    });
  }
});
