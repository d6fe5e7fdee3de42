import type { StatsMap } from './measure.js';

/**
 * Repeated cards: a container whose text sits mostly in three or more alike children (same tag
 * and first class) that each hold a link and little text of their own. Product grids, teaser
 * lists, "you may also like" carousels look like this; article sections and forum posts do not.
 */

function signature(element: Element): string {
  const firstClass = (element.getAttribute('class') ?? '').trim().split(/\s+/)[0] ?? '';
  return `${element.localName}.${firstClass.replace(/\d+/g, '')}`;
}

interface Group {
  count: number;
  linked: number;
  text: number;
  linkText: number;
}

export function isItemList(container: Element, stats: StatsMap, minItems = 3): boolean {
  const groups = new Map<string, Group>();
  for (let child = container.firstElementChild; child; child = child.nextElementSibling) {
    const own = stats.get(child);
    if (!own || own.text === 0) continue;
    const key = signature(child);
    const group = groups.get(key) ?? { count: 0, linked: 0, text: 0, linkText: 0 };
    group.count++;
    group.text += own.text;
    group.linkText += own.linkText;
    if (own.linkText > 0) group.linked++;
    groups.set(key, group);
  }
  const total = stats.get(container)?.text ?? 0;
  for (const group of groups.values()) {
    if (group.count < minItems || group.linked < group.count * 0.75 || group.text < total * 0.6) continue;
    const cardLike = group.linkText >= group.text * 0.3 || (group.text - group.linkText) / group.count < 150;
    if (cardLike) return true;
  }
  return false;
}
