// Meanings on the phone, once it keeps them: a port of indexes/glosses.py's reading of the glosses
// file (WordNet 3.0's first senses). Part of judge.js.

const PARTS_OF_SPEECH = { n: "noun", v: "verb", a: "adjective", r: "adverb" };
const MAX_SENSES = 2;

/**
 * A word's meaning, as GET /v1/words/{word} carries it.
 * @typedef {{word: string, lemmas: string[], senses: {lemma: string, part_of_speech: string, definition: string}[],
 *   source: string}} Definition
 */

/** The glosses file, read: a word's first senses, or those of the words it is a form of. */
export class GlossBook {
  /** @param {string} text the glosses file: "word TAB pos TAB definition ..." or "word TAB =lemma.pos ..." */
  constructor(text) {
    this.entries = new Map();
    for (const line of text.split("\n")) {
      if (!line || line.startsWith("#")) continue;
      const tab = line.indexOf("\t");
      this.entries.set(line.slice(0, tab), line.slice(tab + 1));
    }
  }

  /**
   * @param {string} word
   * @returns {Definition | null}
   */
  define(word) {
    const entry = this.entries.get(word);
    if (entry === undefined) return null;
    const fields = entry.split("\t");
    const senses = [];
    if (!fields[0].startsWith("=")) {
      for (let at = 0; at < Math.min(fields.length, 2 * MAX_SENSES); at += 2) {
        senses.push({ lemma: word, part_of_speech: PARTS_OF_SPEECH[fields[at]], definition: fields[at + 1] });
      }
      return { word, lemmas: [word], senses, source: "WordNet 3.0" };
    }
    const lemmas = [];
    for (const reference of fields) {
      const lemma = reference.slice(1, -2);
      const pos = reference[reference.length - 1];
      const base = (this.entries.get(lemma) || "").split("\t");
      for (let at = 0; at + 1 < base.length; at += 2) {
        if (base[at] === pos && senses.length < MAX_SENSES) {
          senses.push({ lemma, part_of_speech: PARTS_OF_SPEECH[pos], definition: base[at + 1] });
          if (!lemmas.includes(lemma)) lemmas.push(lemma);
        }
      }
    }
    return { word, lemmas, senses, source: "WordNet 3.0" };
  }
}
