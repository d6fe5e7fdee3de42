/** Absolute URLs for links and images, resolved against the page's base URL. */

export function absoluteUrl(href: string, base: string): string {
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return '';
  }
}

/** The document's base: `<base href>` resolved against the page URL, else the page URL. */
export function documentBase(pageUrl: string): string {
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  if (!baseHref) return pageUrl;
  return absoluteUrl(baseHref, pageUrl) || pageUrl;
}

const LAZY_ATTRIBUTES = ['data-src', 'data-lazy-src', 'data-original', 'data-lazy', 'data-url', 'data-hi-res-src'];
const PLACEHOLDER = /^data:|^about:|(?:^|\/)(?:blank|spacer|pixel|placeholder|transparent|lazy[\w-]*)\.(?:gif|png|svg)/i;

function firstSrcsetUrl(srcset: string | null): string {
  return srcset?.trim().split(/\s+/)[0]?.replace(/,$/, '') ?? '';
}

/** The real image URL of an `<img>`, looking behind lazy-loading placeholders; '' when none. */
export function imageSource(image: Element, base: string): string {
  const candidates = [
    image.getAttribute('src'),
    ...LAZY_ATTRIBUTES.map((name) => image.getAttribute(name)),
    firstSrcsetUrl(image.getAttribute('srcset') ?? image.getAttribute('data-srcset')),
  ];
  for (const candidate of candidates) {
    const value = candidate?.trim();
    if (value && !PLACEHOLDER.test(value)) return absoluteUrl(value, base);
  }
  return '';
}
