/**
 * The posts of a thread (a question and its answers, a forum's messages), as the page marks them
 * in schema.org microdata: each is set apart by a rule in the markdown, so a question and its
 * answers do not run together as one text.
 */

const POST_SELECTOR = [
  '[itemtype$="schema.org/Question"]',
  '[itemtype$="schema.org/Answer"]',
  '[itemtype$="schema.org/Comment"]',
  '[itemtype$="schema.org/DiscussionForumPosting"]',
  '[itemtype$="schema.org/SocialMediaPosting"]',
  '[itemprop="suggestedAnswer"]',
  '[itemprop="acceptedAnswer"]',
].join(',');

/** An answer is a post even inside its question's item (Stack Exchange's `mainEntity` holds the answers). */
const ANSWER_SELECTOR = '[itemtype$="schema.org/Answer"], [itemprop="suggestedAnswer"], [itemprop="acceptedAnswer"]';

/**
 * The posts under `roots` that follow another post, kept and not pruned: answers, and other posts
 * not inside a post (a comment inside an answer is part of it). The first needs no rule above it.
 */
export function postsAfterTheFirst(roots: Element[], isWritten: (element: Element) => boolean): Set<Element> {
  const posts: Element[] = [];
  for (const root of roots) {
    for (const post of Array.from(root.querySelectorAll(POST_SELECTOR))) {
      const inPost = post.parentElement?.closest(POST_SELECTOR);
      if (inPost && root.contains(inPost) && !post.matches(ANSWER_SELECTOR)) continue;
      if (inPost?.matches(ANSWER_SELECTOR)) continue;
      if (isWritten(post)) posts.push(post);
    }
  }
  return new Set(posts.slice(1));
}

/** Whether the markdown of `roots` writes `element` where it stands: inside a root, neither it nor a box around it pruned. */
export function isWrittenInPlace(element: Element, roots: Element[], pruned: Set<Element>): boolean {
  const root = roots.find((candidate) => candidate.contains(element));
  if (!root) return false;
  for (let current: Element | null = element; current && current !== root; current = current.parentElement) {
    if (pruned.has(current)) return false;
  }
  return !pruned.has(root);
}
