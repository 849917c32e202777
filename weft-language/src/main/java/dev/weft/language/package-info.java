/**
 * How Weft's assistants read people, in English and Hebrew, written once: {@link dev.weft.language.Folding}
 * (case, accents and niqqud, Hebrew final letters), {@link dev.weft.language.Tokens}, {@link
 * dev.weft.language.Forms} (Hebrew prefix letters and their combinations, plural endings), {@link
 * dev.weft.language.Typos}, {@link dev.weft.language.NumberWords}, {@link dev.weft.language.Cues}
 * (negation, questions, hedges), {@link dev.weft.language.Language} (a message's language by its
 * words), {@link dev.weft.language.Names} (a name across scripts), {@link dev.weft.language.Lexicon}
 * (everyday nouns in both languages) and {@link dev.weft.language.EntityMatch} (finding what a person
 * named among their things). Every class is stateless and thread-safe; what varies by language is data
 * beside the classes ({@code lexicon.tsv}, {@code typos.tsv}).
 */
@NullMarked
package dev.weft.language;

import org.jspecify.annotations.NullMarked;
