/**
 * The words that head readers' comments and the form to add one, in the languages the web writes
 * most. English is written as patterns (it has the most forms); the other languages as the
 * headings their blog and CMS software prints (WordPress's "Leave a Reply" is "Schreibe einen
 * Kommentar", "Laisser un commentaire", "Добавить комментарий"), in lower case.
 */

/** A heading is matched whole, lower-cased, its spaces made one. */
const OTHER_LANGUAGES: Record<string, { comments: string[]; reviews: string[]; form: string[] }> = {
  de: {
    comments: ['kommentar', 'kommentare', 'leserkommentare'],
    reviews: ['bewertungen', 'rezensionen'],
    form: ['schreibe einen kommentar', 'hinterlasse einen kommentar', 'kommentar schreiben', 'kommentar verfassen', 'kommentar hinzufügen'],
  },
  fr: {
    comments: ['commentaire', 'commentaires', 'réactions'],
    reviews: ['avis'],
    form: ['laisser un commentaire', 'laisser une réponse', 'ajouter un commentaire', 'écrire un commentaire', 'laissez un commentaire'],
  },
  es: {
    comments: ['comentario', 'comentarios'],
    reviews: ['reseñas', 'opiniones'],
    form: ['deja un comentario', 'deja una respuesta', 'dejar un comentario', 'añadir un comentario', 'escribe un comentario', 'deja tu comentario'],
  },
  pt: {
    comments: ['comentário', 'comentários', 'comentarios'],
    reviews: ['avaliações', 'opiniões'],
    form: ['deixe um comentário', 'deixe uma resposta', 'deixe seu comentário', 'adicionar comentário', 'escreva um comentário'],
  },
  it: {
    comments: ['commento', 'commenti'],
    reviews: ['recensioni'],
    form: ['lascia un commento', 'lascia una risposta', 'aggiungi un commento', 'scrivi un commento'],
  },
  nl: {
    comments: ['reactie', 'reacties'],
    reviews: ['beoordelingen', 'recensies'],
    form: ['geef een reactie', 'laat een reactie achter', 'plaats een reactie', 'reactie plaatsen'],
  },
  pl: {
    comments: ['komentarz', 'komentarze', 'komentarzy'],
    reviews: ['opinie', 'recenzje'],
    form: ['dodaj komentarz', 'zostaw komentarz', 'napisz komentarz'],
  },
  // The Scandinavian languages share the word.
  sv: { comments: ['kommentarer'], reviews: ['recensioner'], form: ['lämna en kommentar', 'skriv en kommentar'] },
  da: { comments: ['kommentarer'], reviews: ['anmeldelser'], form: ['efterlad en kommentar', 'skriv en kommentar'] },
  ru: {
    // One comment, two to four, five and more, and the heading's plural.
    comments: ['комментарий', 'комментария', 'комментариев', 'комментарии'],
    reviews: ['отзывы', 'отзывов', 'отзыва'],
    form: ['добавить комментарий', 'оставить комментарий', 'оставьте комментарий', 'написать комментарий', 'добавить отзыв', 'оставить отзыв', 'оставьте отзыв', 'написать отзыв'],
  },
  uk: {
    comments: ['коментар', 'коментарі', 'коментарів'],
    reviews: ['відгуки', 'відгуків'],
    form: ['додати коментар', 'залишити коментар', 'залиште коментар', 'залишити відгук'],
  },
  tr: { comments: ['yorum', 'yorumlar'], reviews: ['değerlendirmeler'], form: ['yorum yap', 'bir yorum yazın', 'yorum bırakın', 'yorum yaz'] },
};

function wordsOf(part: 'comments' | 'reviews' | 'form'): string {
  const words = Object.values(OTHER_LANGUAGES).flatMap((language) => language[part]);
  return words.map((word) => word.replace(/ /g, '\\s+')).join('|');
}

/** A count before the words, or after them in brackets: "12 Comments", "Kommentare (3)". */
const COUNTED = (words: string) => new RegExp(`^(?:[\\d,.]+\\s+)?(?:${words})(?:\\s+\\([\\d,.]+\\))?$`, 'iu');

/** The heading of readers' comments: "Comments", "12 Responses", "Comments (3)", "Kommentare", "5 комментариев". */
export const COMMENTS_HEADING = COUNTED(`comments?|responses?|replies|${wordsOf('comments')}`);

/**
 * The heading of readers' reviews under a page ("Reviews", "Отзывы"): their comments by another
 * name, but also a service's testimonials, so they are a comment section only with the form to
 * write one.
 */
export const READER_REVIEWS_HEADING = COUNTED(`reviews|${wordsOf('reviews')}`);

/**
 * The form under a page for readers' words: "Leave a reply", "Add a comment", "Join the
 * conversation", or the sign-in asked for in its place ("You must log in to answer this question").
 */
export const COMMENT_FORM_HEADING = new RegExp(
  '^(?:(?:leave|add|post|write|submit) (?:a|your) (?:comment|reply|response)|join the (?:conversation|discussion)|reply to this (?:topic|thread|post))$' +
    '|^(?:you (?:must|need to|have to) )?(?:(?:create an account|register) or )?(?:sign|log) ?in to (?:comment|reply|answer|post)\\b' +
    `|^(?:${wordsOf('form')})$`,
  'iu',
);
