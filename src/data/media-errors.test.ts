import { describe, expect, it } from 'vitest';
import { printable } from './media-errors.js';

describe('printable', () => {
  it('writes control characters, U+FFFD and bidi overrides as escapes, so a message stays one safe line', () => {
    expect(printable('a\u0000b\nc\td\u001b[31me\u007f\ufffd\u202e')).toBe('a\\x00b\\nc\\td\\x1b[31me\\x7f\\ufffd\\u202e');
    expect(printable('ordinary text, "quotes" and ünïcode')).toBe('ordinary text, "quotes" and ünïcode');
  });

  it('cuts a long text', () => {
    expect(printable('x'.repeat(50), 10)).toBe(`${'x'.repeat(10)}...`);
  });
});
