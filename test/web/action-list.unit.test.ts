import { describe, expect, it } from 'vitest';
import { actionListDeadlineMs, actionListSchema, actionsCost, declaredWaitMs } from '../../src/web/actions/action-list.js';
import { keyName } from '../../src/web/actions/key-names.js';

const costs = { screenshot: 3, pdf: 4, content: 1, markdown: 1, scrape: 1, links: 1, 'ai-extract': 5 };

describe('an action list: its bounds, deadline and price', () => {
  it("takes Firecrawl's shapes, with their defaults", () => {
    const parsed = actionListSchema.parse([
      { type: 'wait', milliseconds: 500 },
      { type: 'click', selector: '#more' },
      { type: 'scroll' },
      { type: 'pdf' },
      { type: 'screenshot', fullPage: true, quality: 80 },
    ]);
    expect(parsed[1]).toEqual({ type: 'click', selector: '#more', all: false });
    expect(parsed[2]).toEqual({ type: 'scroll', direction: 'down' });
    expect(parsed[3]).toEqual({ type: 'pdf', format: 'Letter', landscape: false, scale: 1 });
  });

  it('refuses a list over its bounds, naming what is over', () => {
    const issues = (list: unknown) => actionListSchema.safeParse(list).error?.issues.map((issue) => issue.message) ?? [];
    expect(issues([{ type: 'wait', milliseconds: 30_000 }, { type: 'wait', milliseconds: 30_001 }])).toEqual([
      "The waits of a list add up to 60001 ms, over this server's bound of 60000 ms",
    ]);
    expect(issues(Array.from({ length: 11 }, () => ({ type: 'screenshot' })))).toEqual(["11 screenshot actions in one list, over this server's bound of 10"]);
    expect(issues(Array.from({ length: 6 }, () => ({ type: 'pdf' })))).toEqual(["6 pdf actions in one list, over this server's bound of 5"]);
    expect(issues(Array.from({ length: 51 }, () => ({ type: 'scroll' })))).toHaveLength(1);
    expect(issues([{ type: 'wait', milliseconds: 10, selector: 'p' }])).toEqual(['A wait takes either milliseconds or selector, not both']);
    expect(issues([{ type: 'wait' }])).toEqual(['A wait takes either milliseconds or selector, not both']);
    expect(issues([{ type: 'click', selector: 'a', button: 'right' }])).toHaveLength(1);
    expect(issues([{ type: 'executeJavascript', script: 'x'.repeat(100_001) }])).toHaveLength(1);
  });

  it('gives a list its waits and an allowance for each other step as its deadline, the allowances capped', () => {
    const list = actionListSchema.parse([
      { type: 'wait', milliseconds: 1500 },
      { type: 'click', selector: 'a' },
      { type: 'wait', selector: '#done' },
      { type: 'screenshot' },
      { type: 'executeJavascript', script: '1' },
    ]);
    expect(declaredWaitMs(list)).toBe(1500);
    expect(actionListDeadlineMs(list)).toBe(1500 + 10_000 + 15_000 + 15_000 + 5_000);
    const many = actionListSchema.parse(Array.from({ length: 50 }, () => ({ type: 'scroll' })));
    expect(actionListDeadlineMs(many)).toBe(60_000);
  });

  it('prices each screenshot and PDF an action takes like those outputs, the rest nothing', () => {
    const list = actionListSchema.parse([{ type: 'screenshot' }, { type: 'screenshot' }, { type: 'pdf' }, { type: 'scrape' }, { type: 'executeJavascript', script: '1' }]);
    expect(actionsCost(list, costs)).toBe(3 + 3 + 4);
    expect(actionsCost(undefined, costs)).toBe(0);
  });

  it('reads key names in any case, and chords part by part', () => {
    expect(keyName('ENTER')).toBe('Enter');
    expect(keyName('arrowdown')).toBe('ArrowDown');
    expect(keyName('ctrl+a')).toBe('Control+a');
    expect(keyName('Shift+TAB')).toBe('Shift+Tab');
    expect(keyName('Esc')).toBe('Escape');
    expect(keyName('a')).toBe('a');
    expect(keyName('+')).toBe('+');
    expect(keyName('NoSuchKey')).toBe('NoSuchKey');
  });
});
