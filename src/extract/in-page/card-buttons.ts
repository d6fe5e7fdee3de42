import { signature } from './item-lists.js';
import { BLOCK_TAGS } from './html-blocks.js';
import { liveElements, type StatsMap } from './measure.js';
import { hasLetter, oneLine } from './text.js';

/**
 * A line said word for word in card after card ("View details", "Read more", "Read case study")
 * is the card's button: it tells one card from another no more than the grid's frame does. It is
 * a link standing as a line of its own, or a line of a card that is one link. Lines in the same
 * place of each card that differ (a byline, a category) are the card's own.
 */

/** Longer than this, a line is a title (two products may share one), not a button. */
const MAX_LABEL = 30;
/** A button is said in this many cards at least, */
const MIN_REPEATS = 3;
/** ... and is nearly all the lines in its place of the card. */
const SAME_SHARE = 0.8;

interface Line {
  element: Element;
  label: string;
}

function nearestBlock(element: Element, area: Element): Element | undefined {
  let block: Element | null = element.parentElement;
  while (block && block !== area && !BLOCK_TAGS.has(block.localName)) block = block.parentElement;
  return block ?? undefined;
}

/** The line a link stands on alone: the outermost box holding nothing but it, or undefined when it shares its line. */
function standaloneLine(link: Element, stats: StatsMap, area: Element): Element | undefined {
  const text = stats.get(link)?.text ?? 0;
  const block = nearestBlock(link, area);
  // Other inline words beside it in its block (a sentence, "by Jane Doe"): not a line of its own.
  if (!block || (stats.get(block)?.ownText ?? Infinity) > text) return undefined;
  let line = link;
  for (let parent = link.parentElement; parent && parent !== area && (stats.get(parent)?.text ?? Infinity) <= text; parent = parent.parentElement) line = parent;
  return line;
}

/** Short lines of a card that is one link: blocks inside it that hold their whole text themselves. */
function linesInLink(link: Element, stats: StatsMap): Element[] {
  return Array.from(link.querySelectorAll('*')).filter((element) => {
    const own = stats.get(element);
    return own !== undefined && own.text > 0 && own.text <= MAX_LABEL && BLOCK_TAGS.has(element.localName) && own.ownText === own.text;
  });
}

function labelOf(element: Element): string {
  return oneLine(element.textContent ?? '').toLowerCase();
}

/** Short linked lines of `area`, by their place in a card (their own and their parent's make). */
function linkedLines(area: Element, stats: StatsMap, pruned: Set<Element>): Map<string, Line[]> {
  const places = new Map<string, Line[]>();
  for (const link of liveElements(area, stats, pruned)) {
    const own = stats.get(link);
    if (link.localName !== 'a' || !own || own.text === 0) continue;
    const line = own.text <= MAX_LABEL ? standaloneLine(link, stats, area) : undefined;
    for (const element of line ? [line] : linesInLink(link, stats)) {
      const label = labelOf(element);
      // Prices and counts ("$39.99", "4.5") are each card's own, even when two cards agree.
      if (!hasLetter(label)) continue;
      const place = `${signature(element)}<${element.parentElement ? signature(element.parentElement) : ''}`;
      const lines = places.get(place);
      if (lines) lines.push({ element, label });
      else places.set(place, [{ element, label }]);
    }
  }
  return places;
}

/** The lines of `area` that are a button repeated across cards. */
export function repeatedCardButtons(area: Element, stats: StatsMap, pruned: Set<Element>): Element[] {
  const found: Element[] = [];
  for (const lines of linkedLines(area, stats, pruned).values()) {
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line.label, (counts.get(line.label) ?? 0) + 1);
    const [label, count] = [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best));
    if (count >= MIN_REPEATS && count >= lines.length * SAME_SHARE) found.push(...lines.filter((line) => line.label === label).map((line) => line.element));
  }
  return found;
}
