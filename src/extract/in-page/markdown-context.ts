/** What the markdown writer (markdown.ts) and its table writer (markdown-table.ts) are given about the page. */
export interface MarkdownContext {
  /** Base URL for links and images (the page URL, or its `<base href>`). */
  base: string;
  /** False for elements whose whole subtree is left out (hidden, boilerplate, excluded). */
  keep(element: Element): boolean;
  /**
   * When set, a block whose markdown an earlier, unrelated block already produced is left out
   * (pages render a post twice, for small and large screens or as a preview). Maps the markdown
   * to the element that produced it.
   */
  written?: Map<string, Element>;
  /** Elements set apart from what comes before them by a rule (`---`): the posts of a thread. */
  ruleBefore?: ReadonlySet<Element>;
}
