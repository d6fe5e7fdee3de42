import { describe, expect, it } from 'vitest';
import { cookiesFor } from '../../src/net/target-fetch.js';
import { bodyWords, scriptNeedOf } from '../../src/web/engines/needs-scripts.js';

const words = (count: number) => Array.from({ length: count }, (_, i) => `word${i}`).join(' ');

describe('scriptNeedOf: whether HTML as sent needs its scripts to show its text', () => {
  it('passes a server-rendered article', () => {
    expect(scriptNeedOf(`<html><body><main><h1>Title</h1><p>${words(80)}</p></main><script>track()</script></body></html>`)).toEqual({ needsScripts: false });
  });

  it('sends an empty app root, and a body with no text, to the browser', () => {
    expect(scriptNeedOf('<html><body><div id="root"></div><script src="/app.js"></script></body></html>')).toEqual({ needsScripts: true, reason: 'empty app root' });
    expect(scriptNeedOf('<html><body><div id="__next">  </div></body></html>')).toEqual({ needsScripts: true, reason: 'empty app root' });
    expect(scriptNeedOf('<html><body><app-root></app-root></body></html>')).toEqual({ needsScripts: true, reason: 'empty app root' });
    expect(scriptNeedOf('<html><body><p>Loading</p></body></html>')).toEqual({ needsScripts: true, reason: 'no text without scripts' });
  });

  it('does not count the text of scripts, styles, templates, noscript or comments', () => {
    const hidden = `<script>var a = "${words(100)}";</script><style>p { color: red } ${words(50)}</style><template>${words(50)}</template><noscript>${words(50)}</noscript><!-- ${words(50)} > -->`;
    expect(bodyWords(`<html><body>${hidden}<p>five words are shown here</p></body></html>`, 1000)).toBe(5);
    expect(scriptNeedOf(`<html><body>${hidden}<p>five words are shown here</p></body></html>`).needsScripts).toBe(true);
  });

  it('counts only up to what it needs, and does not mistake <scripted-thing> for a script', () => {
    expect(bodyWords(`<body><p>${words(1000)}</p></body>`, 40)).toBe(40);
    expect(bodyWords('<body><scripted-thing>three shown words</scripted-thing></body>', 100)).toBe(3);
  });

  it('sends meta refresh redirects and framesets to the browser, which follows them', () => {
    expect(scriptNeedOf(`<html><head><meta http-equiv="refresh" content="0; url=/next"></head><body><p>${words(80)}</p></body></html>`)).toEqual({ needsScripts: true, reason: 'redirects by refresh' });
    expect(scriptNeedOf('<html><frameset><frame src="/a"></frameset></html>')).toEqual({ needsScripts: true, reason: 'frameset' });
  });

  it('stays linear on a hostile document (unclosed tags and comments)', () => {
    const started = performance.now();
    scriptNeedOf(`<body>${'<script '.repeat(100_000)}`);
    scriptNeedOf(`<body>${'<!--'.repeat(200_000)}`);
    scriptNeedOf(`<body>${'<'.repeat(1_000_000)}`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("cookiesFor: the caller's cookies a browser would send to a URL", () => {
  const cookies = [
    { name: 'site', value: '1', domain: 'example.com' },
    { name: 'dotted', value: '2', domain: '.example.com', path: '/docs' },
    { name: 'other', value: '3', domain: 'other.org' },
    { name: 'bound', value: '4', url: 'https://www.example.com/login' },
    { name: 'suffix', value: '5', domain: 'ample.com' },
  ];

  it('sends a cookie to its domain and subdomains, under its path, and a URL-bound one to its host only', () => {
    expect(cookiesFor(new URL('https://www.example.com/docs/a'), cookies)).toBe('site=1; dotted=2; bound=4');
    expect(cookiesFor(new URL('https://example.com/'), cookies)).toBe('site=1');
    expect(cookiesFor(new URL('https://other.org/'), cookies)).toBe('other=3');
    expect(cookiesFor(new URL('https://evil-example.com/'), cookies)).toBe('');
  });
});
