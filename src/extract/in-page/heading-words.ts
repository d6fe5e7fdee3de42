import { oneLine } from './text.js';

/**
 * The words that head readers' comments and the form to add one, and widgets about other pages,
 * in the languages the web writes most. English's form headings are a pattern (they have the
 * most forms, and its widget headings are in recommendations.ts); the other languages are the
 * headings their blog, shop and CMS software prints (WordPress's "Leave a Reply" is "Schreibe
 * einen Kommentar", "Laisser un commentaire", "Добавить комментарий"), in lower case. "Read
 * also" names other articles; "See also" is not here, in any language: it is a section of the
 * page (a wiki's).
 */

/**
 * Per language: `comments`, `reviews` and `form` are matched as the whole heading; `widgets` as
 * its start ("Ähnliche Artikel zum Thema Bahn").
 */
const OTHER_LANGUAGES: Record<string, { comments: string[]; reviews: string[]; form: string[]; widgets: string[] }> = {
  de: {
    comments: ['kommentar', 'kommentare', 'leserkommentare'],
    reviews: ['bewertungen', 'rezensionen'],
    form: ['schreibe einen kommentar', 'hinterlasse einen kommentar', 'kommentar schreiben', 'kommentar verfassen', 'kommentar hinzufügen'],
    widgets: ['das könnte sie auch interessieren', 'das könnte dich auch interessieren', 'ähnliche artikel', 'ähnliche produkte', 'verwandte artikel', 'weitere artikel', 'mehr zum thema', 'meistgelesen', 'meist gelesen', 'kunden kauften auch', 'kunden, die diesen artikel gekauft haben', 'zuletzt angesehen', 'passend dazu', 'empfehlungen für dich'],
  },
  fr: {
    comments: ['commentaire', 'commentaires', 'réactions'],
    reviews: ['avis'],
    form: ['laisser un commentaire', 'laisser une réponse', 'ajouter un commentaire', 'écrire un commentaire', 'laissez un commentaire'],
    widgets: ['articles similaires', 'articles connexes', 'vous aimerez aussi', 'vous aimerez peut-être aussi', 'vous aimerez peut-être', 'à lire aussi', 'sur le même sujet', 'les plus lus', 'produits similaires', 'récemment consultés', 'les clients ont aussi acheté', 'contenu sponsorisé'],
  },
  es: {
    comments: ['comentario', 'comentarios'],
    reviews: ['reseñas', 'opiniones'],
    form: ['deja un comentario', 'deja una respuesta', 'dejar un comentario', 'añadir un comentario', 'escribe un comentario', 'deja tu comentario'],
    widgets: ['artículos relacionados', 'también te puede interesar', 'te puede interesar', 'también te puede gustar', 'lo más leído', 'productos relacionados', 'productos similares', 'noticias relacionadas', 'vistos recientemente', 'contenido patrocinado'],
  },
  pt: {
    comments: ['comentário', 'comentários', 'comentarios'],
    reviews: ['avaliações', 'opiniões'],
    form: ['deixe um comentário', 'deixe uma resposta', 'deixe seu comentário', 'adicionar comentário', 'escreva um comentário'],
    widgets: ['artigos relacionados', 'você também pode gostar', 'você também pode se interessar', 'leia também', 'mais lidas', 'mais lidos', 'produtos relacionados', 'produtos similares', 'notícias relacionadas', 'vistos recentemente', 'conteúdo patrocinado'],
  },
  it: {
    comments: ['commento', 'commenti'],
    reviews: ['recensioni'],
    form: ['lascia un commento', 'lascia una risposta', 'aggiungi un commento', 'scrivi un commento'],
    widgets: ['articoli correlati', 'potrebbe interessarti anche', 'ti potrebbe interessare', 'potrebbero interessarti', 'leggi anche', 'i più letti', 'più letti', 'prodotti correlati', 'prodotti simili', 'visti di recente', 'contenuto sponsorizzato'],
  },
  nl: {
    comments: ['reactie', 'reacties'],
    reviews: ['beoordelingen', 'recensies'],
    form: ['geef een reactie', 'laat een reactie achter', 'plaats een reactie', 'reactie plaatsen'],
    widgets: ['gerelateerde artikelen', 'dit vind je misschien ook leuk', 'misschien ook interessant', 'lees ook', 'meest gelezen', 'vergelijkbare producten', 'gerelateerde producten', 'recent bekeken'],
  },
  pl: {
    comments: ['komentarz', 'komentarze', 'komentarzy'],
    reviews: ['opinie', 'recenzje'],
    form: ['dodaj komentarz', 'zostaw komentarz', 'napisz komentarz'],
    widgets: ['podobne artykuły', 'powiązane artykuły', 'czytaj także', 'czytaj też', 'najczęściej czytane', 'podobne produkty', 'polecane produkty', 'ostatnio oglądane'],
  },
  sv: {
    comments: ['kommentarer'],
    reviews: ['recensioner'],
    form: ['lämna en kommentar', 'skriv en kommentar'],
    widgets: ['relaterade artiklar', 'du kanske också gillar', 'läs också', 'mest lästa', 'liknande produkter'],
  },
  da: {
    comments: ['kommentarer'],
    reviews: ['anmeldelser'],
    form: ['efterlad en kommentar', 'skriv en kommentar'],
    widgets: ['relaterede artikler', 'du kan måske også lide', 'læs også', 'mest læste', 'lignende produkter'],
  },
  ru: {
    // One comment, two to four, five and more, and the heading's plural.
    comments: ['комментарий', 'комментария', 'комментариев', 'комментарии'],
    reviews: ['отзывы', 'отзывов', 'отзыва'],
    form: ['добавить комментарий', 'оставить комментарий', 'оставьте комментарий', 'написать комментарий', 'добавить отзыв', 'оставить отзыв', 'оставьте отзыв', 'написать отзыв'],
    widgets: ['похожие статьи', 'читайте также', 'вам может понравиться', 'вам также может понравиться', 'похожие товары', 'с этим товаром покупают', 'вы недавно смотрели', 'самое читаемое', 'популярные статьи', 'похожие записи'],
  },
  uk: {
    comments: ['коментар', 'коментарі', 'коментарів'],
    reviews: ['відгуки', 'відгуків'],
    form: ['додати коментар', 'залишити коментар', 'залиште коментар', 'залишити відгук'],
    widgets: ['схожі статті', 'читайте також', 'вам може сподобатися', 'схожі товари', 'найпопулярніше'],
  },
  tr: {
    comments: ['yorum', 'yorumlar'],
    reviews: ['değerlendirmeler'],
    form: ['yorum yap', 'bir yorum yazın', 'yorum bırakın', 'yorum yaz'],
    widgets: ['ilgili haberler', 'benzer ürünler', 'ilginizi çekebilir', 'en çok okunanlar', 'bunlar da ilginizi çekebilir'],
  },
};

/*
 * The other languages are looked up in sets, not matched by one pattern: a pattern of a few
 * hundred phrases, case-insensitive over Unicode, takes V8 about 6 ms to compile on its first use,
 * and the extractor's code starts afresh on every page.
 */

/** The heading's words lower-cased, in one line. */
function normalised(text: string): string {
  return oneLine(text).toLowerCase();
}

/** A count before the words, or after them in brackets: "12 Kommentare", "Kommentare (3)". */
function withoutCount(text: string): string {
  return text.replace(/^[\d,.]+ /, '').replace(/ \([\d,.]+\)$/, '');
}

function phrases(part: 'comments' | 'reviews' | 'form'): Set<string> {
  return new Set(Object.values(OTHER_LANGUAGES).flatMap((language) => language[part]));
}

/** English's comment and review headings are single words, looked up with the others'. */
const COMMENT_WORDS = new Set(['comment', 'comments', 'response', 'responses', 'replies', ...phrases('comments')]);
const REVIEW_WORDS = new Set(['reviews', ...phrases('reviews')]);
const FORM_WORDS = phrases('form');

/** A heading's first word, without the stop or colon after it ("Meistgelesen:"). */
function firstWord(text: string): string {
  const end = text.search(/\s/);
  return (end < 0 ? text : text.slice(0, end)).replace(/[:,.!?(]+$/, '');
}

/** The widget phrases by their first word, for a lookup before any comparison. */
const WIDGET_PHRASES = new Map<string, string[]>();
for (const phrase of Object.values(OTHER_LANGUAGES).flatMap((language) => language.widgets)) {
  const first = firstWord(phrase);
  WIDGET_PHRASES.set(first, [...(WIDGET_PHRASES.get(first) ?? []), phrase]);
}

/**
 * The form under a page for readers' words: "Leave a reply", "Add a comment", "Join the
 * conversation", or the sign-in asked for in its place ("You must log in to answer this question").
 */
const COMMENT_FORM_HEADING =
  /^(?:(?:leave|add|post|write|submit) (?:a|your) (?:comment|reply|response)|join the (?:conversation|discussion)|reply to this (?:topic|thread|post))$|^(?:you (?:must|need to|have to) )?(?:(?:create an account|register) or )?(?:sign|log) ?in to (?:comment|reply|answer|post)\b/i;

/** The heading of readers' comments: "Comments", "12 Responses", "Kommentare (3)", "5 комментариев". */
export function isCommentsHeading(text: string): boolean {
  return COMMENT_WORDS.has(withoutCount(normalised(text)));
}

/**
 * The heading of readers' reviews under a page ("Reviews", "Отзывы"): their comments by another
 * name, but also a service's testimonials, so they are a comment section only with the form to
 * write one.
 */
export function isReaderReviewsHeading(text: string): boolean {
  return REVIEW_WORDS.has(withoutCount(normalised(text)));
}

/** The heading of the form to add a comment: "Leave a reply", "Schreibe einen Kommentar". */
export function isCommentFormHeading(text: string): boolean {
  return COMMENT_FORM_HEADING.test(text) || FORM_WORDS.has(normalised(text));
}

/** What may follow a widget's phrase in its heading: the end, a space or a colon ("À lire aussi :"). */
const AFTER_PHRASE = /^(?:$|[\s:,.!?(])/;

/**
 * A widget about other pages, headed in a language other than English ("Ähnliche Artikel", "Vous
 * aimerez aussi", "Читайте также"): the phrase starts the heading, and ends it or a word.
 */
export function isOtherLanguageWidgetHeading(text: string): boolean {
  // Asked of every short box on a page: the first word is looked up before the text is copied.
  const candidates = WIDGET_PHRASES.get(firstWord(text.trimStart()).toLowerCase());
  if (!candidates) return false;
  const lower = normalised(text);
  return candidates.some((phrase) => lower.startsWith(phrase) && AFTER_PHRASE.test(lower.slice(phrase.length, phrase.length + 1)));
}
