/** The user agent token Pluck's crawler answers to in robots.txt (besides `*`). */
export const CRAWLER_TOKEN = 'pluck';

interface Rule {
  allow: boolean;
  pattern: string;
  matcher: RegExp;
}

/** What a site's robots.txt says to Pluck: path rules and the sitemaps it names. */
export interface RobotsRules {
  isAllowed(url: string): boolean;
  sitemaps: string[];
}

export const ALLOW_EVERYTHING: RobotsRules = { isAllowed: () => true, sitemaps: [] };

/**
 * Reads robots.txt as RFC 9309 describes: the group naming `pluck` if there is one, else the
 * `*` group; the longest matching rule wins, Allow on a tie; `*` and `$` in patterns. Sitemap
 * lines apply whatever group they sit in.
 */
export function parseRobots(text: string, origin: string): RobotsRules {
  const groups: Array<{ agents: string[]; rules: Rule[] }> = [];
  const sitemaps: string[] = [];
  let current: { agents: string[]; rules: Rule[] } | undefined;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r?\n|\r/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'sitemap') {
      if (URL.canParse(value, origin)) sitemaps.push(new URL(value, origin).href);
      continue;
    }
    if (field === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current || (field !== 'allow' && field !== 'disallow')) continue;
    // An empty Disallow allows everything: no rule.
    if (value === '') continue;
    current.rules.push({ allow: field === 'allow', pattern: value, matcher: toMatcher(value) });
  }
  const own = groups.filter((group) => group.agents.some((agent) => agent !== '*' && CRAWLER_TOKEN.startsWith(agent)));
  const chosen = own.length > 0 ? own : groups.filter((group) => group.agents.includes('*'));
  const rules = chosen.flatMap((group) => group.rules);
  return {
    sitemaps,
    isAllowed(url: string) {
      const parsed = new URL(url);
      const path = `${parsed.pathname}${parsed.search}`;
      let best: Rule | undefined;
      for (const rule of rules) {
        if (!rule.matcher.test(path)) continue;
        if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
      }
      return best?.allow ?? true;
    },
  };
}

function toMatcher(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}
